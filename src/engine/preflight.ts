import type { PlatformClient } from '../api';
import { isForeignAnswer, PlatformError, ResponseShapeError } from '../api/errors';
import { networkErrors } from '../errors';
import { faultErrors } from '../resources/errors';

/**
 * Checks, before anything is read or planned, that the base URL answers as the platform does
 * and accepts the credentials: otherwise every read would fail and a plan would show the
 * whole configuration as missing. Throws one error that says which and what to check.
 */
export async function checkPlatform(client: PlatformClient): Promise<void> {
  try {
    await client.authenticate();
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.network) throw networkErrors.of(err.network);
    if (err instanceof ResponseShapeError || isForeignAnswer(err)) throw faultErrors.notThePlatform(client.baseUrl, err.message);
    if (err.status === 400 || err.status === 401 || err.status === 403) throw faultErrors.credentialsRefused(client.baseUrl, client.clientId, err.message);
    throw faultErrors.platformUnreachable(client.baseUrl, err.message);
  }
}
