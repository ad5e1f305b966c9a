// Runs inside every tool's isolate, in a fresh context, before the tool's code. The sandbox host
// (src/synth/host/isolates.ts) calls `prelude()` ahead of time, for spare isolates, then
// `connect(hostRequest, granted, maxOutputChars)` with one bridge to the host and the names of the
// capabilities the tool was granted.
//
// It does three things, all before untrusted code runs:
// 1. captures the intrinsics it needs, so that nothing the tool later does to builtins can subvert it;
// 2. tames and freezes the realm (no eval/Function constructors, no WebAssembly or shared memory, no
//    RegExp legacy statics, every reachable intrinsic frozen), so that a context can be reused for the
//    next call of the same tool without carrying state from one call to the next;
// 3. connect returns `setup(name)`, which the host calls once the tool's function is declared: it freezes
//    the global object and hands back `invoke(argsJson)`. Only the host holds that function (as a Reference);
//    nothing of the host is reachable from the tool's code.
//
// Results leave as one JSON string built here by walking own data properties: getters, proxies,
// functions, symbols, cycles, non-plain objects and "__proto__" keys are refused, never followed.

// biome-ignore lint/correctness/noUnusedVariables: called by the host (src/synth/host/isolates.ts)
function prelude() {
  const G = globalThis;
  const { apply, ownKeys, getPrototypeOf } = Reflect;
  const { freeze, getOwnPropertyDescriptor, defineProperty } = Object;
  const isArray = Array.isArray;
  const isFiniteNumber = Number.isFinite;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const StringCtor = String;
  const ObjectProto = Object.prototype;
  const ArrayProto = Array.prototype;
  const push = ArrayProto.push;
  const join = ArrayProto.join;
  const arrayMap = ArrayProto.map;
  const setAdd = Set.prototype.add;
  const setHas = Set.prototype.has;
  const setDelete = Set.prototype.delete;
  const weakAdd = WeakSet.prototype.add;
  const weakHas = WeakSet.prototype.has;
  const NativeProxy = Proxy;
  const NativeSet = Set;
  const NativeWeakSet = WeakSet;
  const NativeMap = Map;
  const NativePromise = Promise;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapDelete = Map.prototype.delete;
  const NativeError = Error;
  const NativeTypeError = TypeError;
  const stackGetter = getOwnPropertyDescriptor(new Error("probe"), "stack")?.get;
  const stringSlice = String.prototype.slice;
  const NativeRegExp = RegExp;
  const regexExec = RegExp.prototype.exec;

  // Proxies cannot be told apart from plain objects from inside JavaScript, so every proxy the tool creates
  // is recorded here and refused at the boundary.
  const proxies = new NativeWeakSet();
  function TamedProxy(target, handler) {
    if (new.target === undefined) throw new NativeTypeError("Constructor Proxy requires 'new'");
    const proxy = new NativeProxy(target, handler);
    apply(weakAdd, proxies, [proxy]);
    return proxy;
  }
  TamedProxy.revocable = function revocable(target, handler) {
    const pair = NativeProxy.revocable(target, handler);
    apply(weakAdd, proxies, [pair.proxy]);
    return pair;
  };

  function refuseCodeFromStrings() {
    throw new NativeError("code generation from strings is not available in the sandbox");
  }
  function tameConstructor(example) {
    const prototype = getPrototypeOf(example);
    defineProperty(prototype, "constructor", { value: refuseCodeFromStrings, writable: false });
  }
  tameConstructor(() => {});
  tameConstructor(async () => {});
  tameConstructor(function* () {});
  tameConstructor(async function* () {});
  refuseCodeFromStrings.prototype = Function.prototype;

  // Legacy RegExp statics (RegExp.$1, lastMatch…) would carry the previous call's last match into the next.
  for (const key of ["$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "input", "$_", "lastMatch", "$&"])
    delete RegExp[key];
  for (const key of ["lastParen", "$+", "leftContext", "$`", "rightContext", "$'"]) delete RegExp[key];

  for (const key of [
    "eval",
    "WebAssembly",
    "SharedArrayBuffer",
    "Atomics",
    "console",
    "FinalizationRegistry",
    "WeakRef",
  ])
    delete G[key];
  G.Function = refuseCodeFromStrings;
  G.Proxy = TamedProxy;

  // Deep-freeze every intrinsic reachable from the global object, plus the ones only reachable through
  // syntax (generator and async function prototypes, iterator prototypes).
  const hiddenRoots = [
    getPrototypeOf(async () => {}),
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function* () {}),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(new Map()[Symbol.iterator]()),
    getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf(""[Symbol.iterator]()),
    getPrototypeOf(/x/[Symbol.matchAll]("")),
    getPrototypeOf([].values().map((x) => x)),
    getPrototypeOf(Iterator.from({ next: () => ({ done: true }) })),
    getPrototypeOf(Int8Array),
    getPrototypeOf(new Intl.Segmenter().segment("")),
    getPrototypeOf(new Intl.Segmenter().segment("")[Symbol.iterator]()),
  ];
  const seen = new NativeSet();
  const pending = [...ownKeys(G).map((key) => getOwnPropertyDescriptor(G, key)?.value), ...hiddenRoots];
  while (pending.length > 0) {
    const value = pending.pop();
    if ((typeof value !== "object" && typeof value !== "function") || value === null || value === G) continue;
    if (apply(setHas, seen, [value])) continue;
    apply(setAdd, seen, [value]);
    freeze(value);
    pending.push(getPrototypeOf(value));
    for (const key of ownKeys(value)) {
      const descriptor = getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined) continue;
      if ("value" in descriptor) pending.push(descriptor.value);
      else pending.push(descriptor.get, descriptor.set);
    }
  }

  class OutputError extends NativeError {}

  /** The value as JSON text, or an OutputError naming where and why it is refused. */
  function encode(root, limit) {
    const parts = [];
    const inProgress = new NativeSet();
    let size = 0;
    const emit = (text) => {
      size += text.length;
      if (size > limit) throw new OutputError(`the result is larger than the ${limit}-character limit`);
      apply(push, parts, [text]);
    };
    const walk = (value, path, depth) => {
      if (value === null || value === undefined) return emit("null");
      switch (typeof value) {
        case "string":
          // Checked before stringify, which would first copy a huge string.
          if (value.length > limit - size)
            throw new OutputError(`the result is larger than the ${limit}-character limit`);
          return emit(stringify(value));
        case "boolean":
          return emit(stringify(value));
        case "number":
          return emit(isFiniteNumber(value) ? stringify(value) : "null");
        case "bigint":
          throw new OutputError(`${path} is a BigInt; return it as a string or a number`);
        case "symbol":
          throw new OutputError(`${path} is a Symbol, which is not JSON`);
        case "function":
          throw new OutputError(`${path} is a function; return data, not functions`);
      }
      if (depth > 200) throw new OutputError(`${path} is nested more than 200 levels deep`);
      if (apply(weakHas, proxies, [value])) throw new OutputError(`${path} is a Proxy; return plain data`);
      if (apply(setHas, inProgress, [value]))
        throw new OutputError(`${path} refers back to one of its parents (a cycle); JSON cannot hold cycles`);
      const prototype = getPrototypeOf(value);
      const array = isArray(value);
      if (array ? prototype !== ArrayProto : prototype !== ObjectProto && prototype !== null)
        throw new OutputError(
          `${path} is not a plain object or array (a Date, Map, class instance…); convert it to plain data`,
        );
      apply(setAdd, inProgress, [value]);
      if (array) {
        const length = getOwnPropertyDescriptor(value, "length").value;
        if (length * 5 > limit - size)
          throw new OutputError(`the result is larger than the ${limit}-character limit`);
        emit("[");
        for (let i = 0; i < length; i++) {
          if (i > 0) emit(",");
          const descriptor = getOwnPropertyDescriptor(value, i);
          if (descriptor !== undefined && !("value" in descriptor))
            throw new OutputError(`${path}[${i}] is a getter; return plain data`);
          walk(descriptor?.value, `${path}[${i}]`, depth + 1);
        }
        emit("]");
      } else {
        emit("{");
        let first = true;
        for (const key of ownKeys(value)) {
          if (typeof key === "symbol") throw new OutputError(`${path} has a Symbol key, which is not JSON`);
          const where = `${path}.${key}`;
          if (key === "__proto__") throw new OutputError(`${where}: a "__proto__" key is refused`);
          const descriptor = getOwnPropertyDescriptor(value, key);
          if (descriptor === undefined || !descriptor.enumerable) continue;
          if (!("value" in descriptor))
            throw new OutputError(`${where} is a getter or setter; return plain data`);
          if (descriptor.value === undefined) continue;
          emit(first ? "" : ",");
          first = false;
          emit(stringify(key));
          emit(":");
          walk(descriptor.value, where, depth + 1);
        }
        emit("}");
      }
      apply(setDelete, inProgress, [value]);
    };
    walk(root, "result", 0);
    return apply(join, parts, [""]);
  }

  /** Reads an own data property without running getters or proxy traps of our own. */
  function dataOf(object, key) {
    if ((typeof object !== "object" && typeof object !== "function") || object === null) return undefined;
    if (apply(weakHas, proxies, [object])) return undefined;
    const descriptor = getOwnPropertyDescriptor(object, key);
    if (descriptor === undefined) return undefined;
    if ("value" in descriptor) return descriptor.value;
    return descriptor.get === stackGetter && key === "stack" ? apply(stackGetter, object, []) : undefined;
  }

  /** A thrown value described as plain strings: name, message and the tool-code position of the throw. */
  function describeThrown(thrown, filename) {
    if (typeof thrown !== "object" || thrown === null) return { name: "Error", message: StringCtor(thrown) };
    if (apply(weakHas, proxies, [thrown]))
      return { name: "Error", message: "a non-Error value was thrown (a Proxy)" };
    let name = dataOf(thrown, "name");
    if (typeof name !== "string") name = dataOf(getPrototypeOf(thrown), "name");
    const message = dataOf(thrown, "message");
    const stack = dataOf(thrown, "stack");
    const described = {
      name: typeof name === "string" ? name : "Error",
      message:
        typeof message === "string"
          ? apply(stringSlice, message, [0, consoleLineChars])
          : "a non-Error value was thrown",
    };
    if (typeof stack === "string") {
      const match = apply(regexExec, new NativeRegExp(`${escapedForRegExp(filename)}:(\\d+):(\\d+)`), [
        stack,
      ]);
      if (match !== null) {
        described.line = +match[1];
        described.column = +match[2];
      }
    }
    return described;
  }
  function escapedForRegExp(text) {
    let out = "";
    for (const char of text) out += "\\^$.*+?()[]{}|/-".includes(char) ? `\\${char}` : char;
    return out;
  }

  const consoleLimit = 200;
  const consoleLineChars = 2000;
  function makeConsole(lines) {
    const log =
      (level) =>
      (...args) => {
        if (lines.length >= consoleLimit) return;
        const texts = [];
        for (const arg of args) {
          let text;
          if (typeof arg === "string") text = arg;
          else {
            try {
              text = encode(arg, consoleLineChars);
            } catch {
              text = `[${typeof arg}]`;
            }
          }
          apply(push, texts, [text]);
        }
        const message = apply(join, texts, [" "]);
        apply(push, lines, [{ level, message: apply(stringSlice, message, [0, consoleLineChars]) }]);
      };
    return freeze({ log: log("log"), info: log("info"), warn: log("warn"), error: log("error") });
  }

  function makeResponse(reply) {
    const { status, statusText, url, headers, body } = parse(reply);
    return freeze({
      status,
      statusText,
      ok: status >= 200 && status < 300,
      url,
      headers: freeze(headers),
      text: async () => body,
      json: async () => parse(body),
    });
  }

  /**
   * Binds the host's bridge; returns { setup, settle }. Every capability is one kind of request: the
   * bridge only starts it (`hostRequest(id, capability, json)`, nothing can be awaited across), the parent
   * process checks and performs it, and the host answers later by calling settle(id, ok, payload), which
   * only the host holds.
   */
  return function connect(hostRequest, granted, maxOutputChars) {
    const pending = new NativeMap();
    let lastId = 0;
    const ask = (capability, json) =>
      new NativePromise((resolve, reject) => {
        lastId += 1;
        apply(mapSet, pending, [lastId, { resolve, reject }]);
        hostRequest(lastId, capability, json);
      });
    const grantedSet = new NativeSet(granted);
    const isGranted = (capability) => apply(setHas, grantedSet, [capability]);
    function settle(id, ok, payload) {
      const waiting = apply(mapGet, pending, [id]);
      if (waiting === undefined) return;
      apply(mapDelete, pending, [id]);
      if (ok) waiting.resolve(payload);
      else waiting.reject(new NativeError(payload));
    }

    /**
     * ctx.browser: each method sends one plain-data request (copied through encode, which refuses
     * anything but plain data) and answers the parent's JSON reply. Nothing of the page reaches the tool
     * but that copied data, and no method takes code to run in the page. A refusal is a BrowserError
     * whose message starts with its class (timeout, blocked, browser_crashed…).
     */
    function makeBrowser() {
      const send = async (request) => {
        const json = encode(request, maxOutputChars);
        let reply;
        try {
          reply = await ask("browser", json);
        } catch (error) {
          defineProperty(error, "name", { value: "BrowserError" });
          throw error;
        }
        return parse(reply);
      };
      const timeoutOf = (options) => (options === undefined ? undefined : options.timeoutMs);
      const optionalString = (value) => (value === undefined ? undefined : StringCtor(value));
      return freeze({
        open: (url) => send({ op: "open", url: StringCtor(url) }),
        waitFor: (target, options) =>
          send({
            op: "waitFor",
            target: typeof target === "string" ? target : { text: StringCtor(target?.text) },
            timeoutMs: timeoutOf(options),
          }),
        click: (selector, options) =>
          send({ op: "click", selector: StringCtor(selector), timeoutMs: timeoutOf(options) }),
        fill: (selector, value, options) =>
          send({
            op: "fill",
            selector: StringCtor(selector),
            value: StringCtor(value),
            timeoutMs: timeoutOf(options),
          }),
        select: (selector, ...values) =>
          send({
            op: "select",
            selector: StringCtor(selector),
            values: apply(arrayMap, values, [(v) => StringCtor(v)]),
          }),
        press: (key, options) =>
          send({ op: "press", key: StringCtor(key), selector: optionalString(options?.selector) }),
        text: (selector) => send({ op: "text", selector: optionalString(selector) }),
        extract: (selector, options) =>
          send({
            op: "extract",
            selector: StringCtor(selector),
            attrs: options?.attrs,
            limit: options?.limit,
          }),
        screenshot: (options) =>
          send({
            op: "screenshot",
            selector: optionalString(options?.selector),
            fullPage: options?.fullPage,
          }),
        content: () => send({ op: "content" }),
        blocked: () => send({ op: "blocked" }),
      });
    }

    /** `context` is the session context's declared keys as JSON; setContext collects a call's changes. */
    function makeCtx(lines, contextJson, changes) {
      const ctx = { console: makeConsole(lines) };
      if (contextJson !== undefined) {
        ctx.context = parse(contextJson);
        ctx.setContext = (patch) => {
          const copy = parse(encode(patch, 65536));
          if (copy === null || typeof copy !== "object" || isArray(copy))
            throw new NativeTypeError("setContext takes an object of context keys");
          // defineProperty, not assignment: a setter the tool put on Object.prototype is never called.
          const keys = ownKeys(copy);
          for (let i = 0; i < keys.length; i++)
            defineProperty(changes.value, keys[i], {
              value: copy[keys[i]],
              enumerable: true,
              writable: true,
              configurable: true,
            });
        };
      }
      if (isGranted("fetch")) {
        ctx.fetch = async (url, init = {}) => {
          const fetchRequest = {
            url: StringCtor(url),
            method: init.method === undefined ? "GET" : StringCtor(init.method),
            headers: init.headers === undefined ? {} : parse(encode(init.headers, 65536)),
            body: init.body === undefined || init.body === null ? undefined : StringCtor(init.body),
          };
          return makeResponse(await ask("fetch", encode(fetchRequest, maxOutputChars)));
        };
      }
      if (isGranted("browser")) ctx.browser = makeBrowser();
      if (isGranted("html")) {
        ctx.html = async (markup, selector, options = {}) =>
          parse(
            await ask(
              "html",
              encode({ markup: StringCtor(markup), selector: StringCtor(selector), options }, maxOutputChars),
            ),
          );
      }
      return freeze(ctx);
    }

    function failure(error, lines) {
      return encode({ ok: false, error, console: lines }, maxOutputChars + 65536);
    }

    function setup(name) {
      const tool = getOwnPropertyDescriptor(G, name)?.value;
      if (typeof tool !== "function") throw new NativeTypeError(`the code does not define function ${name}`);
      freeze(tool);
      if (tool.prototype !== undefined) freeze(tool.prototype);
      freeze(G);
      const filename = `tool:${name}`;
      return async function invoke(argsJson, contextJson) {
        const lines = [];
        const changes = { value: {} };
        let value;
        try {
          value = await apply(tool, undefined, [parse(argsJson), makeCtx(lines, contextJson, changes)]);
        } catch (thrown) {
          return failure({ stage: "runtime", ...describeThrown(thrown, filename) }, lines);
        }
        let json;
        try {
          json = encode(value, maxOutputChars);
        } catch (error) {
          if (!(error instanceof OutputError)) throw error;
          return failure({ stage: "output", name: "OutputError", message: error.message }, lines);
        }
        const context = contextJson === undefined ? "" : `,"context":${encode(changes.value, 65536)}`;
        return `{"ok":true,"value":${json},"console":${encode(lines, maxOutputChars)}${context}}`;
      };
    }

    return freeze({ setup, settle });
  };
}
