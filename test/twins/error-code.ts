import { LithosError } from '../../shared/errors';

/** The LithosError code a promise rejects with, or 'resolved'; anything else is rethrown. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LithosError) return err.code;
    throw err;
  }
  return 'resolved';
}
