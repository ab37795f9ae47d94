// Headers of decisions §13 that client and server must spell alike: the registering browser's proof
// (X-Registration) and the known-device strings it keeps (X-Device). No zod here: the client's
// bundle imports this file.

export const REGISTRATION_HEADER = 'x-registration';
export const DEVICE_HEADER = 'x-device';
/** How many device strings (one per account this browser signed into) one X-Device header may carry. */
export const DEVICE_HEADER_MAX = 8;
