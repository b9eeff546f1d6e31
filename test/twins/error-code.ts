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

/** The LithosError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function failure(p: Promise<unknown>): Promise<LithosError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LithosError);
    return err as LithosError;
  }
  throw new Error('expected the promise to reject');
}
