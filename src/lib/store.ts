// The one Jotai store of the app. React reads it through <Provider store={store}> (src/app/providers.tsx);
// code outside React (the API client, the outbox, service-worker glue) imports it and uses
// store.get / store.set / store.sub on the same atoms.
import { createStore } from 'jotai';

export const store = createStore();
