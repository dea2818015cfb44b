/**
 * Fault injection for the crash test (test/e2e/crash-recovery.test.ts): with NODE_ENV=test and
 * PAYMENTS_FAULT_CRASH_AFTER=<operation kind>, the process dies right after the processor
 * answered that operation and before the answer is committed. Ignored outside tests.
 */
export function crashPointAfter(kind: string): void {
  if (process.env.NODE_ENV === 'test' && process.env.PAYMENTS_FAULT_CRASH_AFTER === kind) {
    process.exit(137);
  }
}
