// What the line says when the origin gave no answer: the runtime's error sorted into timeout, refused
// or failed. The messages are those js-compute 3.46.0 gives its NetworkError (the local host sends the
// same details; test/e2e/origin.test.ts meets them on the built room).
import { describe, expect, it } from 'vitest';
import { originFailure } from '../../../src/core/handler/origin-failure.js';

const networkError = (message: string): DOMException => new DOMException(message, 'NetworkError');

describe('originFailure', () => {
  it('calls a first-byte or connect timeout a timeout', () => {
    expect(originFailure(networkError('HTTP response timeout'))).toBe('timeout');
    expect(originFailure(networkError('Connection timeout'))).toBe('timeout');
  });

  it('calls a connection never made refused: nothing listening, a backend down, a name that resolves to nothing', () => {
    for (const message of [
      'Connection refused',
      'Destination unavailable',
      'Destination not found',
      'Destination IP unroutable',
      'Connection limit reached',
      'DNS timeout',
      'DNS error (rcode=0, info_code=0)',
    ])
      expect(originFailure(networkError(message)), message).toBe('refused');
  });

  it('calls everything else failed: a dropped connection, TLS, a broken answer, an error of another kind', () => {
    for (const error of [
      networkError('Connection terminated'),
      networkError('TLS certificate error'),
      networkError('Incomplete HTTP response'),
      networkError('NetworkError when attempting to fetch resource.'),
      networkError(''),
      // The same words from something that is not the runtime's network error are not trusted.
      new TypeError('Connection refused'),
      new Error('HTTP response timeout'),
      'Connection refused',
      null,
      undefined,
      { name: 'NetworkError', message: 42 },
    ])
      expect(originFailure(error), String(error)).toBe('failed');
  });
});
