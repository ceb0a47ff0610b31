// The offline feature's public face: what client.tsx may use (ESLint refuses any other file of this
// folder from outside it): the service worker's registration. The worker itself (worker.ts) is a
// build entry of its own.
export { startOffline } from './register';
