import { ApiError } from '../../errors/api-error.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/store.js';
import type { ProcessorConnector } from './connector.js';
import { createSimulatedProcessor } from './simulated.js';

/** Connectors that PROCESSOR may name. A real processor's connector is added here. */
export const LIVE_CONNECTORS = ['simulated'] as const;
export type LiveConnectorName = (typeof LIVE_CONNECTORS)[number];

/** Which connector serves each mode: test mode always the simulated one; live mode what configuration chose. */
export interface Processors {
  forMode(livemode: boolean): ProcessorConnector;
  /** The connector that handled an operation, by the name recorded on it. */
  byName(name: string): ProcessorConnector | undefined;
  /** The connector name serving a mode, or undefined when live mode has none. */
  nameForMode(livemode: boolean): string | undefined;
}

export function createProcessors(store: Store, clock: Clock, live: string | undefined): Processors {
  const simulated = createSimulatedProcessor(store, clock);
  const connectors = new Map<string, ProcessorConnector>([[simulated.name, simulated]]);
  if (live !== undefined && !(LIVE_CONNECTORS as readonly string[]).includes(live)) {
    throw new Error(`Unknown PROCESSOR '${live}'. Known: ${LIVE_CONNECTORS.join(', ')}.`);
  }
  const liveConnector = live ? connectors.get(live) : undefined;
  return {
    forMode(livemode) {
      if (!livemode) return simulated;
      if (!liveConnector) {
        throw new ApiError(
          'processor_not_configured',
          'Live payments need a payment processor, and none is configured. The operator sets PROCESSOR; until then nothing was charged.',
        );
      }
      return liveConnector;
    },
    byName: (name) => connectors.get(name),
    nameForMode: (livemode) => (livemode ? liveConnector?.name : simulated.name),
  };
}
