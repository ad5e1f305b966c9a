// The route queries the service benchmarks send, spread over the bundled catalog's departments; kept in one
// place so that both benchmarks measure the same routing work.
export const ROUTE_QUERIES = [
  "I want my money back for order 1234",
  "what's the weather in Paris tomorrow",
  "convert 5 miles to kilometres",
  "how many words are in this paragraph",
  "reset my password",
  "where is my parcel",
  "hash this string with sha256",
  "add 30 days to 2024-01-31",
];
