/** Data is partitioned by account and mode; every repository call names its partition. */
export type Mode = 'live' | 'test';
export const MODES: readonly Mode[] = ['live', 'test'];

export interface Partition {
  readonly accountId: string;
  readonly mode: Mode;
}
