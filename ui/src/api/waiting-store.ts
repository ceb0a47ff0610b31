// The waiting writes kept in IndexedDB (waiting.ts): TanStack Query's persister, saving the
// mutations still pending and nothing else, into a database of this origin through idb-keyval.
// Loaded once a page makes a write, or finds the flag a page before left (`WAITING_FLAG`); it then
// brings back the writes kept and sends them (`resumePausedMutations`), in the order they were made.

import type { Mutation, QueryClient } from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { persistQueryClientRestore, persistQueryClientSave, persistQueryClientSubscribe } from '@tanstack/query-persist-client-core';
import { createStore, del, get, set } from 'idb-keyval';
import { WAITING_FLAG, WRITE_KEY, type Write } from './waiting-names';

const store = createStore('tala-writes', 'waiting');

function flag(waiting: number): void {
  try {
    if (waiting > 0) localStorage.setItem(WAITING_FLAG, String(waiting));
    else localStorage.removeItem(WAITING_FLAG);
  } catch {
    /* storage refused: the next page does not look for kept writes */
  }
}

const persister = createAsyncStoragePersister({
  storage: {
    getItem: (key) => get<string>(key, store).then((v) => v ?? null),
    setItem: (key, value) => set(key, value, store),
    removeItem: (key) => del(key, store),
  },
  key: 'writes',
  // Saved as soon as a write is made or answered: a page closed a moment after the add keeps it.
  throttleTime: 0,
  // Every write kept is one to send again: a write that was on its way when its page closed is
  // brought back as waiting, so that the next page continues it (its key makes it count once).
  serialize: (client) => {
    const mutations = client.clientState.mutations.map((m) => ({ ...m, state: { ...m.state, isPaused: true } }));
    flag(mutations.length);
    return JSON.stringify({ ...client, clientState: { ...client.clientState, mutations } });
  },
});

const isWrite = (m: Mutation) => m.state.status === 'pending' && m.options.mutationKey?.[0] === WRITE_KEY[0];

/**
 * Brings back the writes kept, sends them, and keeps those waiting from now on. Writes made in
 * another session than this page's (`session`, its CSRF token) are thrown away unsent and unshown:
 * they were another person's at this phone, or of a session that has ended. A write made before
 * the browser had a session goes with the one it has now. A page that knows no session (the
 * offline page) keeps them all, and holds a session's (waiting-run.ts `attempt`).
 */
export async function keepWaiting(client: QueryClient, session: string): Promise<void> {
  // A day-old change is not sent: the cart it was made against has moved on.
  await persistQueryClientRestore({ queryClient: client, persister, maxAge: 24 * 60 * 60 * 1000 }).catch(() => undefined);
  const cache = client.getMutationCache();
  for (const m of cache.findAll({ mutationKey: WRITE_KEY, status: 'pending' })) {
    const made = (m.state.variables as Write | undefined)?.session ?? '';
    if (session !== '' && made !== '' && made !== session) cache.remove(m);
  }
  const options = {
    queryClient: client,
    persister,
    dehydrateOptions: { shouldDehydrateQuery: () => false, shouldDehydrateMutation: isWrite },
  };
  persistQueryClientSubscribe(options);
  // The write that loaded this file is kept now, not at its next change.
  await persistQueryClientSave(options);
  await client.resumePausedMutations();
}
