// Headers of decisions §13 that client and server must spell alike: the registering browser's proof
// (X-Registration) and the known-device strings it keeps (X-Device). No zod here: the client's
// bundle imports this file.

export const REGISTRATION_HEADER = 'x-registration';
/**
 * How many registration strings (newest first, comma-separated) one X-Registration may carry: "send
 * again" registers again, and the first mail's link must still take the password typed here.
 */
export const REGISTRATION_HEADER_MAX = 5;
export const DEVICE_HEADER = 'x-device';
/** How many device strings (one per account this browser signed into) one X-Device header may carry. */
export const DEVICE_HEADER_MAX = 8;
