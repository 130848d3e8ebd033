/** Test helper: the OaaError a promise rejects with (any other outcome fails the test). */
import { OaaError } from '@oaakit/core';

export async function rejection(promise: Promise<unknown>): Promise<OaaError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OaaError) return error;
    throw error;
  }
  throw new Error('expected the promise to reject with an OaaError');
}
