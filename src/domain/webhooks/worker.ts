import type { Clock } from '../../lib/clock.js';
import type { HttpPost } from '../../lib/http-post.js';
import type { Store } from '../../store/store.js';
import { type DeliveryOptions, type DeliveryReport, deliverDueWebhooks } from './deliver.js';

export interface WebhookWorker {
  /** Runs one pass now (unless one is running) and answers its report. */
  runOnce(): Promise<DeliveryReport | undefined>;
  /** Stops polling and waits for the deliveries in flight to be sent and recorded. */
  stop(): Promise<void>;
}

export interface WebhookWorkerOptions extends DeliveryOptions {
  store: Store;
  clock: Clock;
  post: HttpPost;
  intervalMs: number;
  onError?: (err: unknown) => void;
}

/** Polls the outbox every `intervalMs`; one pass at a time per process. */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { store, clock, post, intervalMs, onError, ...delivery } = options;
  let running: Promise<DeliveryReport | undefined> | undefined;
  let stopped = false;

  const runOnce = () => {
    if (stopped) return Promise.resolve(undefined);
    running ??= deliverDueWebhooks(store, clock, post, delivery)
      .catch((err: unknown) => {
        onError?.(err);
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const timer = setInterval(() => void runOnce(), intervalMs);
  timer.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
