/**
 * What the emulator publishes as it answers, on channels of their own: an observer (the contract
 * checks, a test that acts at a moment) subscribes without loading the emulator.
 */
import type * as http from 'node:http';
import { channel } from 'node:diagnostics_channel';

/** One request the emulator answered, as observers of `exchangeChannel` see it. */
export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  requestBody: Buffer;
  status: number;
  responseBody: unknown;
  /** The answer is an injected fault (429, 5xx), not the platform's behaviour. */
  injected: boolean;
}

/**
 * Every answered /api and token request is published here, for observers such as the contract
 * tests; nothing is built while nobody listens.
 */
export const exchangeChannel = channel('tenantform.emulator.exchange');

/** A request that reached the emulator, before its latency, faults and handling. */
export interface Arrival {
  method: string;
  path: string;
}

/**
 * Every request is published here as it arrives: a test that must act while a request is in
 * flight (an interrupt, a kill) acts on this event rather than on a timer.
 */
export const arrivalChannel = channel('tenantform.emulator.arrival');
