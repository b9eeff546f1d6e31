/**
 * Learned data a store could not bring back at open: which file lost it, how much, and a sentence for the
 * person. The engine puts the message in its warnings (CLI stderr, doctor, the plugin's notice) and records
 * a `store.damaged` audit entry with the counts, so the loss stays on record after the next save.
 */
export interface StoreLoss {
  file: string;
  counts: Record<string, number>;
  message: string;
}
