import type { ProcessorOperationRecord, SimulatedOperationRecord } from '../../records.js';
import { PROCESSOR_OPERATION_COLUMNS, processorOperationFromRow, processorOperationToRow } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** The processor intent log and the simulated processor’s ledger. */
export abstract class ProcessorQueries extends SqlBase {
  async insertProcessorOperation(o: ProcessorOperationRecord): Promise<void> {
    await this.ex.run(
      `INSERT INTO processor_operations (${PROCESSOR_OPERATION_COLUMNS}) VALUES (${placeholders(13)})`,
      processorOperationToRow(o),
    );
  }

  async settleProcessorOperation(
    id: string,
    patch: Pick<ProcessorOperationRecord, 'state' | 'reference' | 'outcome' | 'updated'>,
  ): Promise<boolean> {
    const changed = await this.ex.run(
      `UPDATE processor_operations SET state = ?, reference = ?, outcome = ?, updated = ? WHERE id = ? AND state = 'pending'`,
      [patch.state, patch.reference, patch.outcome === null ? null : JSON.stringify(patch.outcome), patch.updated, id],
    );
    return changed === 1;
  }

  async findPendingOperationForPayment(paymentId: string): Promise<ProcessorOperationRecord | undefined> {
    const row = await this.ex.get<Row>(
      `SELECT ${PROCESSOR_OPERATION_COLUMNS} FROM processor_operations WHERE payment_id = ? AND state = 'pending' LIMIT 1`,
      [paymentId],
    );
    return row && processorOperationFromRow(row);
  }

  async listPendingOperations(createdBeforeMs: number, limit: number): Promise<ProcessorOperationRecord[]> {
    const rows = await this.ex.all<Row>(
      `SELECT ${PROCESSOR_OPERATION_COLUMNS} FROM processor_operations WHERE state = 'pending' AND created <= ? ORDER BY created LIMIT ?`,
      [createdBeforeMs, limit],
    );
    return rows.map(processorOperationFromRow);
  }

  // ---- simulated processor --------------------------------------------------------------------

  async insertSimulatedOperation(o: SimulatedOperationRecord): Promise<void> {
    await this.ex.run(
      'INSERT INTO simulated_processor_operations (operation_id, reference, kind, amount, outcome, created) VALUES (?, ?, ?, ?, ?, ?)',
      [o.operationId, o.reference, o.kind, o.amount, JSON.stringify(o.outcome), o.created],
    );
  }

  async findSimulatedOperation(operationId: string): Promise<SimulatedOperationRecord | undefined> {
    const row = await this.ex.get<Row>('SELECT * FROM simulated_processor_operations WHERE operation_id = ?', [operationId]);
    return row && simulatedFromRow(row);
  }

  async findSimulatedOperationsByReference(reference: string): Promise<SimulatedOperationRecord[]> {
    const rows = await this.ex.all<Row>('SELECT * FROM simulated_processor_operations WHERE reference = ? ORDER BY created', [reference]);
    return rows.map(simulatedFromRow);
  }
}

function simulatedFromRow(r: Row): SimulatedOperationRecord {
  return {
    operationId: r.operation_id as string,
    reference: r.reference as string,
    kind: r.kind as string,
    amount: Number(r.amount),
    outcome: JSON.parse(r.outcome as string) as Record<string, unknown>,
    created: Number(r.created),
  };
}
