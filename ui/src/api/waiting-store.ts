// The waiting writes kept in IndexedDB (waiting.ts): TanStack Query's persister, saving the
// mutations still pending and nothing else, into a database of this origin through idb-keyval.
// Loaded once a page makes a write, or finds the flag a page before left (`WAITING_FLAG`); it then
// brings back the writes kept and sends them (`resumePausedMutations`), in the order they were made.

import type { Mutation, QueryClient } from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { persistQueryClientRestore, persistQueryClientSave, persistQueryClientSubscribe } from '@tanstack/query-persist-client-core';
import { createStore, del, get, set } from 'idb-keyval';
import { TOO_OLD, tooOld, WAITING_FLAG, WRITE_KEY, type Told, type Write } from './waiting-names';

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
 * Brings back the writes kept, keeps those waiting from now on, and sends them once the page shows
 * them (`shown`: hydrated, the bar listing them, the tab in view), so that nothing is sent that the
 * shopper cannot see waiting. Writes made in another session than this page's (`session`, its
 * CSRF token) are thrown away unsent and unshown: they were another person's at this phone, or of
 * a session that has ended. A write made before the browser had a session goes with the one it has
 * now. A page that knows no session (the offline page) keeps them all, and holds a session's
 * (waiting-run.ts `attempt`). A write that waited too long (a day; a Submit Order half an hour:
 * `tooOld`) is not sent, and the shopper is told so (`tell`).
 */
export async function keepWaiting(client: QueryClient, session: string, tell: (t: Told) => void, shown: Promise<void>): Promise<void> {
  await persistQueryClientRestore({ queryClient: client, persister, maxAge: Infinity }).catch(() => undefined);
  const cache = client.getMutationCache();
  const now = Date.now();
  for (const m of cache.findAll({ mutationKey: WRITE_KEY, status: 'pending' })) {
    const write = m.state.variables as Write | undefined;
    const made = write?.session ?? '';
    if (session !== '' && made !== '' && made !== session) cache.remove(m);
    else if (!write || tooOld(write, now)) {
      cache.remove(m);
      if (write) tell({ id: write.id, label: write.label, done: false, message: TOO_OLD });
    }
  }
  const options = {
    queryClient: client,
    persister,
    dehydrateOptions: { shouldDehydrateQuery: () => false, shouldDehydrateMutation: isWrite },
  };
  persistQueryClientSubscribe(options);
  // The write that loaded this file is kept now, not at its next change.
  await persistQueryClientSave(options);
  void shown.then(() => client.resumePausedMutations());
}
