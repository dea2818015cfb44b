/** The script-tag build: `<script src=".../js/payments.global.js">` defines `window.Payments`. */
import { Payments, PaymentsError } from './index.js';

Object.assign(window, { Payments: Object.assign(Payments, { PaymentsError }) });
