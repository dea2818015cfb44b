/**
 * Binds the card fields the service renders (number, expiry, CVC, each with a label and an
 * error element) to live validation: formatting as the customer types, brand detection,
 * errors announced to screen readers (`role="alert"`) and tied to their field
 * (`aria-invalid`, `aria-describedby`). Used by the card element and the hosted checkout page.
 */
import { BRAND_NAMES, type CardCheck, type CardFields, checkCard, cvcLengthOf, formatExpiry, formatNumber } from './card.js';

type Field = keyof CardFields;
const FIELDS: readonly Field[] = ['number', 'expiry', 'cvc'];

export interface CardForm {
  /** Checks every field as on submit, shows the errors and focuses the first wrong field. */
  submit(): CardCheck;
  onChange(listener: (check: CardCheck) => void): void;
  setDisabled(disabled: boolean): void;
  clear(): void;
  focus(): void;
}

export function bindCardForm(root: ParentNode, now: () => Date = () => new Date()): CardForm {
  const input = (f: Field) => root.querySelector<HTMLInputElement>(`[data-field="${f}"]`) as HTMLInputElement;
  const errorOf = (f: Field) => root.querySelector<HTMLElement>(`[data-error="${f}"]`) as HTMLElement;
  const brandLabel = root.querySelector<HTMLElement>('[data-brand]');
  const listeners: ((check: CardCheck) => void)[] = [];
  const touched = new Set<Field>();

  const values = (): CardFields => ({ number: input('number').value, expiry: input('expiry').value, cvc: input('cvc').value });

  function show(check: CardCheck, fields: readonly Field[]): void {
    for (const f of fields) {
      const message = check.errors[f] ?? '';
      const el = errorOf(f);
      if (el.textContent !== message) el.textContent = message;
      input(f).setAttribute('aria-invalid', message ? 'true' : 'false');
    }
    if (brandLabel) {
      brandLabel.textContent = BRAND_NAMES[check.brand];
      brandLabel.dataset.brand = check.brand;
    }
    input('cvc').maxLength = cvcLengthOf(check.brand);
  }

  function update(final: boolean): CardCheck {
    const check = checkCard(values(), now(), final);
    show(check, final ? FIELDS : FIELDS.filter((f) => touched.has(f) || check.errors[f]));
    for (const l of listeners) l(check);
    return check;
  }

  input('number').addEventListener('input', () => {
    const el = input('number');
    el.value = formatNumber(el.value);
    update(false);
  });
  input('expiry').addEventListener('input', (e) => {
    const el = input('expiry');
    if ((e as InputEvent).inputType !== 'deleteContentBackward') el.value = formatExpiry(el.value);
    update(false);
  });
  input('cvc').addEventListener('input', () => {
    const el = input('cvc');
    el.value = el.value.replace(/\D/g, '');
    update(false);
  });
  for (const f of FIELDS) {
    input(f).addEventListener('blur', () => {
      if (input(f).value) touched.add(f);
      update(false);
    });
  }

  return {
    submit() {
      for (const f of FIELDS) touched.add(f);
      const check = update(true);
      const firstWrong = FIELDS.find((f) => check.errors[f]);
      if (firstWrong) input(firstWrong).focus();
      return check;
    },
    onChange(listener) {
      listeners.push(listener);
    },
    setDisabled(disabled) {
      for (const f of FIELDS) input(f).disabled = disabled;
    },
    clear() {
      for (const f of FIELDS) input(f).value = '';
      touched.clear();
      update(false);
    },
    focus() {
      input('number').focus();
    },
  };
}

/** Shows an error that came back from the service next to the field it names (`card.number` → number). */
export function showServerError(root: ParentNode, param: string | undefined, message: string): boolean {
  const field = ({ 'card.number': 'number', 'card.exp_month': 'expiry', 'card.exp_year': 'expiry', 'card.cvc': 'cvc' } as const)[
    param as 'card.number'
  ];
  if (!field) return false;
  const el = root.querySelector<HTMLElement>(`[data-error="${field}"]`);
  const input = root.querySelector<HTMLInputElement>(`[data-field="${field}"]`);
  if (!el || !input) return false;
  el.textContent = message;
  input.setAttribute('aria-invalid', 'true');
  input.focus();
  return true;
}
