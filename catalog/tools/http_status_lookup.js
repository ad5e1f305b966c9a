// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function http_status_lookup(args) {
  const code = typeof args.code === "string" ? Number(args.code.trim()) : args.code;
  if (!Number.isInteger(code) || code < 100 || code > 599)
    throw new Error("code must be an HTTP status code from 100 to 599");
  // [name, meaning, retry advice] for the codes in RFC 9110 and the ones commonly met in practice.
  const table = {
    100: ["Continue", "The server got the request headers; the client should send the body.", false],
    101: ["Switching Protocols", "The server is switching protocols as asked (e.g. to WebSocket).", false],
    200: ["OK", "The request succeeded.", false],
    201: ["Created", "The request succeeded and created a new resource (see the Location header).", false],
    202: ["Accepted", "The request was accepted for processing, which has not finished yet.", false],
    204: ["No Content", "The request succeeded and there is no body to return.", false],
    206: ["Partial Content", "The server returns the byte range that was asked for.", false],
    301: [
      "Moved Permanently",
      "The resource has a new permanent URL (Location header); update links.",
      false,
    ],
    302: ["Found", "The resource is temporarily at another URL (Location header).", false],
    304: ["Not Modified", "The cached copy is still valid; no body is sent.", false],
    307: ["Temporary Redirect", "Repeat the same request at the URL in Location, keeping the method.", false],
    308: [
      "Permanent Redirect",
      "The resource moved permanently; repeat the request there with the same method.",
      false,
    ],
    400: [
      "Bad Request",
      "The server cannot process the request because it is malformed; fix the request.",
      false,
    ],
    401: ["Unauthorized", "Authentication is missing or invalid; send valid credentials.", false],
    402: ["Payment Required", "Payment is needed before the request can be served.", false],
    403: [
      "Forbidden",
      "The server understood the request but refuses it; the credentials lack permission.",
      false,
    ],
    404: ["Not Found", "There is nothing at this URL.", false],
    405: ["Method Not Allowed", "The URL exists but not for this HTTP method (see the Allow header).", false],
    406: ["Not Acceptable", "No representation matches the Accept headers.", false],
    408: ["Request Timeout", "The server timed out waiting for the request.", true],
    409: [
      "Conflict",
      "The request conflicts with the resource's current state (e.g. an edit conflict).",
      false,
    ],
    410: ["Gone", "The resource was deliberately removed and will not come back.", false],
    411: ["Length Required", "The request needs a Content-Length header.", false],
    412: ["Precondition Failed", "A conditional header (If-Match…) did not hold.", false],
    413: ["Content Too Large", "The request body is larger than the server accepts.", false],
    414: ["URI Too Long", "The URL is longer than the server accepts.", false],
    415: ["Unsupported Media Type", "The body's Content-Type is not supported.", false],
    416: ["Range Not Satisfiable", "The requested byte range is outside the resource.", false],
    418: [
      "I'm a teapot",
      "An April Fools' joke from RFC 2324; some servers use it to refuse requests.",
      false,
    ],
    422: ["Unprocessable Content", "The request is well-formed but its content fails validation.", false],
    425: ["Too Early", "The server will not process a request that might be replayed.", true],
    426: ["Upgrade Required", "Switch to another protocol (see the Upgrade header).", false],
    428: ["Precondition Required", "The server requires a conditional request.", false],
    429: ["Too Many Requests", "Rate limited; wait for the Retry-After time before trying again.", true],
    431: ["Request Header Fields Too Large", "The headers are too large.", false],
    451: ["Unavailable For Legal Reasons", "The resource is blocked for legal reasons.", false],
    500: ["Internal Server Error", "The server hit an unexpected error.", true],
    501: ["Not Implemented", "The server does not support the functionality needed.", false],
    502: ["Bad Gateway", "A gateway or proxy got an invalid response from the upstream server.", true],
    503: ["Service Unavailable", "The server is overloaded or down for maintenance; see Retry-After.", true],
    504: ["Gateway Timeout", "A gateway or proxy did not get a timely response from upstream.", true],
    505: ["HTTP Version Not Supported", "The server does not support the request's HTTP version.", false],
    507: ["Insufficient Storage", "The server cannot store what is needed to complete the request.", false],
    511: ["Network Authentication Required", "Log in to the network first (captive portal).", false],
  };
  const classes = {
    1: "informational",
    2: "success",
    3: "redirection",
    4: "client error",
    5: "server error",
  };
  const entry = table[code];
  const kind = classes[Math.floor(code / 100)];
  return {
    code,
    name: entry ? entry[0] : null,
    class: kind,
    meaning: entry ? entry[1] : `An unassigned or non-standard ${kind} status.`,
    retryable: entry ? entry[2] : code >= 500,
    standard: entry !== undefined,
  };
}
