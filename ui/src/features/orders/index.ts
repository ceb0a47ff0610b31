// The public face of features/orders: what other features and the app may use of it (ESLint refuses
// any other file of this folder from outside it): the answer of a Submit Order sent after its page
// had gone, for the app's writes (client.tsx). Its pages reach the route table through pages.ts
// (with the checkout's, place/: the API's orders/place), and other features read its queries from
// queries.ts.
export { orderAnswered } from './place/submit';
