// Stripe's webhook, POST /api/v1/payments/webhooks/stripe/ (decisions §8). No player signs in here:
// the Stripe-Signature header over the exact bytes sent is the only proof, so this route (and only
// it) reads its body raw, within the app's body limit. A forged or stale signature answers 400 and
// changes nothing; a verified event of a type we do not use answers 200 so Stripe stops resending it.
import type { FastifyPluginAsync } from 'fastify';
import Stripe from 'stripe';
import { ApiError, notFound } from '../../lib/errors';
import { handleStripeEvent } from '../../services/payments/stripe-events';
import { stripeClient } from '../../services/payments/stripe-provider';

const routes: FastifyPluginAsync = async (app) => {
  const stripe = stripeClient(app.config.stripe);
  const secret = app.config.stripe.webhookSecret;

  // Every content type as bytes, in this plugin's scope only: the signature is over the raw body,
  // and a re-serialised JSON would not match it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/payments/webhooks/stripe/',
    {
      config: { answers: { 400: ['invalid_signature', 'invalid_event'], 404: ['not_found'] } },
      schema: { tags: ['payments'], summary: 'Stripe webhook (signed; card payments and refunds)' },
    },
    async (request) => {
      if (!stripe || !secret) throw notFound('Card payments are not configured');
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '')
        throw new ApiError(400, 'invalid_signature', 'Stripe-Signature header missing');
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new ApiError(400, 'invalid_event', 'Empty body');
      // The package refuses a timestamp older than its tolerance but not one ahead of our clock: a
      // delivery stamped in the future would stay replayable for that much longer.
      const stamped = Number(/(?:^|,)t=(\d{1,12})(?:,|$)/.exec(signature)?.[1]);
      if (stamped > Date.now() / 1000 + Stripe.webhooks.DEFAULT_TOLERANCE)
        throw new ApiError(400, 'invalid_signature', 'Stripe signature is dated in the future');
      let event: Stripe.Event;
      try {
        // Default tolerance (300 s): an old delivery replayed later is refused as stale.
        event = stripe.webhooks.constructEvent(body, signature, secret);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new ApiError(400, 'invalid_signature', 'Stripe signature does not verify');
        throw new ApiError(400, 'invalid_event', 'The event is not JSON');
      }
      if (event === null || typeof event !== 'object')
        throw new ApiError(400, 'invalid_event', 'The event is not an object');
      const outcome = await handleStripeEvent({ db: app.db, dialect: app.dialect, stripe }, event, (msg) =>
        request.log.warn({ event: event.id }, msg),
      );
      request.log.info({ event: event.id, type: event.type, outcome }, 'stripe webhook');
      return { received: true, outcome };
    },
  );
};
export default routes;
