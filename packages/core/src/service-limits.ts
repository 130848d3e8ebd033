/**
 * The service's "100 MB" limit on a request body, in the one place it is read. The spec does not say
 * whether a megabyte is 10^6 or 2^20 bytes, so each side takes the reading that keeps it safe: the
 * client sends at most the smaller, the emulator refuses only past the larger. Between the two, the
 * real service may refuse what the emulator takes; the client never sends that much.
 */

/** The most the client puts in one request body: 100 MB as 100,000,000 bytes; larger payloads go in parts. */
export const SEND_BODY_LIMIT_BYTES = 100_000_000;

/** The most the emulator accepts in one request body: 100 MB as 100 MiB (104,857,600 bytes). */
export const ACCEPT_BODY_LIMIT_BYTES = 100 * 1024 * 1024;
