// The static policy for tool code, checked with acorn before anything is compiled. It is defence in depth:
// the isolate (and the tamed, frozen realm of sandbox/prelude.js) is what actually contains the code, so
// this check aims at clear, early feedback an LLM can act on, not at being the last line.
//
// Allowlists: at the top level exactly one function declaration, the tool's; inside, a free name must be
// declared by the code or be one of the sandbox's globals; and a list of refused names and constructs, each
// with a sentence saying what to do instead. Computed member access with a run-time key (`obj[key]`) cannot be judged statically;
// the realm's tamed constructors and frozen intrinsics cover what such a key could reach.
import { type Node, parse } from "acorn";
import { fullAncestor } from "acorn-walk";
import type { Violation } from "./errors.ts";

const CAPABILITIES_HINT =
  "use only built-in JavaScript and what ctx grants (ctx.fetch, ctx.html, ctx.console)";

/** Names a tool may not mention at all, with the sentence that tells the author what to do instead. */
const REFUSED_NAMES = new Map<string, string>(
  Object.entries({
    require: `tools cannot load modules; ${CAPABILITIES_HINT}`,
    module: `tools are not modules; define only the tool function`,
    exports: `tools do not export anything; define only the tool function`,
    process: `the host process is not reachable from a tool; take configuration from args`,
    global: `there is no global object to reach; keep state in local variables`,
    globalThis: `the global object is off limits; keep state in local variables`,
    window: `there is no window; keep state in local variables`,
    self: `there is no global self; keep state in local variables`,
    eval: "code generation from strings is refused; write the code directly",
    Function: "the Function constructor generates code from strings and is refused; write the code directly",
    AsyncFunction: "code generation from strings is refused; write the code directly",
    GeneratorFunction: "code generation from strings is refused; write the code directly",
    AsyncGeneratorFunction: "code generation from strings is refused; write the code directly",
    WebAssembly: "WebAssembly is not available in the sandbox; write the logic in JavaScript",
    SharedArrayBuffer: "shared memory is not available in the sandbox; use ordinary arrays or ArrayBuffer",
    Atomics: "Atomics is not available in the sandbox (there is no shared memory)",
    WeakRef: "WeakRef is not available in the sandbox; hold values in ordinary variables",
    FinalizationRegistry: "FinalizationRegistry is not available in the sandbox",
    setTimeout: "the sandbox has no timers; await ctx.fetch or return directly",
    setInterval: "the sandbox has no timers; loop directly and return",
    setImmediate: "the sandbox has no timers; await ctx.fetch or return directly",
    queueMicrotask: "the sandbox has no task queue API; use async/await",
    fetch: "there is no global fetch; call ctx.fetch(url, init), granted by the tool's capabilities",
    console: "there is no global console; use ctx.console.log/warn/error",
    Buffer: "Buffer is a Node API and is not available; use strings or a Uint8Array",
    __dirname: "there is no file system in the sandbox",
    __filename: "there is no file system in the sandbox",
  }),
);

/**
 * Property names that lead out of plain data: to constructors, prototypes or the caller's frames. (A Map,
 * because "__proto__" in an object literal would set the prototype instead of making a key.)
 */
const REFUSED_PROPERTIES = new Map<string, string>([
  [
    "constructor",
    "reaching .constructor can lead to the Function constructor; refer to classes by name instead",
  ],
  ["__proto__", "__proto__ changes or exposes prototypes; use Object.create(null) or plain objects"],
  ["__defineGetter__", "define plain data properties instead of getters"],
  ["__defineSetter__", "define plain data properties instead of setters"],
  ["__lookupGetter__", "inspect plain data properties instead of getters"],
  ["__lookupSetter__", "inspect plain data properties instead of setters"],
  ["caller", "function.caller exposes other frames and is refused"],
  ["callee", "arguments.callee is refused; name the function and call it by name"],
  ["setPrototypeOf", "changing prototypes is refused; build plain objects instead"],
]);

/** Built-in globals a tool may read but must not modify. */
const BUILTINS = new Set([
  "Object",
  "Array",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "BigInt",
  "Math",
  "JSON",
  "Date",
  "RegExp",
  "Promise",
  "Reflect",
  "Proxy",
  "Error",
  "TypeError",
  "RangeError",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "Intl",
  "Iterator",
  "ArrayBuffer",
  "DataView",
]);

/**
 * The globals that exist inside the sandbox (see sandbox/prelude.js): a name the tool neither declares nor
 * finds here is refused before it becomes a ReferenceError at run time.
 */
const SANDBOX_GLOBALS = new Set([
  ...BUILTINS,
  "undefined",
  "NaN",
  "Infinity",
  "arguments",
  "parseInt",
  "parseFloat",
  "isNaN",
  "isFinite",
  "encodeURI",
  "encodeURIComponent",
  "decodeURI",
  "decodeURIComponent",
  "escape",
  "unescape",
  "AggregateError",
  "EvalError",
  "ReferenceError",
  "SyntaxError",
  "URIError",
  "SuppressedError",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float16Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "DisposableStack",
  "AsyncDisposableStack",
]);

/** Host APIs LLMs reach for that a bare isolate does not have, with what to do instead. */
const MISSING_APIS = new Map<string, string>([
  ["URL", "parse URLs with string methods or a regular expression"],
  ["URLSearchParams", "build query strings with encodeURIComponent"],
  ["TextEncoder", "work on strings, or build bytes with charCodeAt into a Uint8Array"],
  ["TextDecoder", "work on strings, or decode bytes with String.fromCharCode"],
  ["atob", "decode base64 by hand with a lookup table"],
  ["btoa", "encode base64 by hand with a lookup table"],
  ["crypto", "there is no crypto API; Math.random is available for non-secret randomness"],
  ["structuredClone", "copy plain data with JSON.parse(JSON.stringify(value))"],
  ["performance", "there is no clock but Date.now()"],
]);

/** Every name the code declares anywhere (functions, parameters, variables, classes, catch bindings). */
function declaredNames(ast: AnyNode): Set<string> {
  const names = new Set<string>();
  const addPattern = (pattern: AnyNode | null | undefined): void => {
    if (!pattern) return;
    switch (pattern.type) {
      case "Identifier":
        names.add(pattern.name as string);
        break;
      case "ObjectPattern":
        for (const property of pattern.properties as AnyNode[])
          addPattern(property.type === "RestElement" ? property : (property.value as AnyNode));
        break;
      case "ArrayPattern":
        for (const element of pattern.elements as (AnyNode | null)[]) addPattern(element);
        break;
      case "AssignmentPattern":
        addPattern(pattern.left as AnyNode);
        break;
      case "RestElement":
        addPattern(pattern.argument as AnyNode);
        break;
    }
  };
  fullAncestor(ast, (node: Node) => {
    const n = node as AnyNode;
    switch (n.type) {
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        addPattern(n.id as AnyNode | null);
        for (const param of n.params as AnyNode[]) addPattern(param);
        break;
      case "ClassDeclaration":
      case "ClassExpression":
        addPattern(n.id as AnyNode | null);
        break;
      case "VariableDeclarator":
        addPattern(n.id as AnyNode);
        break;
      case "CatchClause":
        addPattern(n.param as AnyNode | null);
        break;
    }
  });
  return names;
}

interface AnyNode extends Node {
  [key: string]: unknown;
}

function staticName(node: AnyNode | undefined, computed: boolean): string | undefined {
  if (node === undefined) return undefined;
  if (!computed && node.type === "Identifier") return node.name as string;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0)
    return ((node.quasis as AnyNode[])[0]?.value as { cooked?: string } | undefined)?.cooked;
  return undefined;
}

/** The outermost object of a member chain (`a` in `a.b.c`) and whether `.prototype` occurs in it. */
function chainOf(node: AnyNode): { root: AnyNode; throughPrototype: boolean } {
  let throughPrototype = false;
  let current = node;
  while (current.type === "MemberExpression") {
    const name = staticName(current.property as AnyNode, current.computed as boolean);
    if (name === "prototype") throughPrototype = true;
    current = current.object as AnyNode;
  }
  return { root: current, throughPrototype };
}

/** Checks tool code against the policy; an empty array means it may be compiled. */
export function checkCode(code: string, name: string): Violation[] {
  const parsed = parseScript(code);
  if ("syntax" in parsed) return [parsed.syntax];
  const ast = parsed.ast;
  const violations: Violation[] = [];
  const report = (node: AnyNode, message: string) =>
    violations.push({ message, line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1 });
  const tool = toolFunction(ast, name, report, violations);
  const scope: NodeScope = { name, tool, declared: declaredNames(ast), report };
  fullAncestor(ast, (node: Node, _state: unknown, ancestors: Node[]) =>
    checkNode(node as AnyNode, ancestors as AnyNode[], scope),
  );
  violations.sort((a, b) => a.line - b.line || a.column - b.column);
  return violations;
}

function parseScript(code: string): { ast: AnyNode } | { syntax: Violation } {
  try {
    return {
      ast: parse(code, {
        ecmaVersion: "latest",
        sourceType: "script",
        locations: true,
        allowImportExportEverywhere: true,
      }) as unknown as AnyNode,
    };
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    const message = (error as Error).message.replace(/ \(\d+:\d+\)$/, "");
    return {
      syntax: {
        message: `syntax error: ${message}; the code must be plain JavaScript (no TypeScript or JSX)`,
        line: loc?.line ?? 1,
        column: (loc?.column ?? 0) + 1,
      },
    };
  }
}

/** The tool's own function; everything else at the top level, and a missing or misshapen tool, is reported. */
function toolFunction(
  ast: AnyNode,
  name: string,
  report: (node: AnyNode, message: string) => void,
  violations: Violation[],
): AnyNode | undefined {
  const body = ast.body as AnyNode[];
  const tool = body.find(
    (node) => node.type === "FunctionDeclaration" && (node.id as AnyNode | null)?.name === name,
  );
  for (const node of body) {
    if (node === tool) continue;
    const what = node.type === "FunctionDeclaration" ? `function ${(node.id as AnyNode).name}` : node.type;
    report(
      node,
      `only the tool function may appear at the top level, found ${what}; move helpers inside async function ${name}(args, ctx)`,
    );
  }
  if (tool === undefined) {
    violations.push({
      message: `the code must define async function ${name}(args, ctx) at the top level`,
      line: 1,
      column: 1,
    });
  } else {
    if (tool.generator) report(tool, `${name} must be a plain or async function, not a generator`);
    if ((tool.params as unknown[]).length > 2)
      report(tool, `${name} takes at most two parameters: (args, ctx)`);
  }
  return tool;
}

interface NodeScope {
  name: string;
  tool: AnyNode | undefined;
  declared: Set<string>;
  report(node: AnyNode, message: string): void;
}

/** The rules for one node of the tool's code, with its ancestors (the node itself last). */
function checkNode(n: AnyNode, ancestors: AnyNode[], { name, tool, declared, report }: NodeScope): void {
  const parent = ancestors[ancestors.length - 2];
  switch (n.type) {
    case "ImportDeclaration":
    case "ImportExpression":
      report(n, `import is refused: tools cannot load modules; ${CAPABILITIES_HINT}`);
      break;
    case "ExportNamedDeclaration":
    case "ExportDefaultDeclaration":
    case "ExportAllDeclaration":
      report(n, `export is refused: just define async function ${name}(args, ctx)`);
      break;
    case "MetaProperty":
      if ((n.meta as AnyNode).name === "import") report(n, "import.meta is not available in the sandbox");
      break;
    case "WithStatement":
      report(n, "with statements are refused; refer to object properties explicitly");
      break;
    case "DebuggerStatement":
      report(n, "debugger statements are refused; remove it");
      break;
    case "Identifier": {
      const identifier = n.name as string;
      const advice = REFUSED_NAMES.get(identifier);
      if (advice !== undefined) report(n, `\`${identifier}\` is refused: ${advice}`);
      else if (
        !declared.has(identifier) &&
        !SANDBOX_GLOBALS.has(identifier) &&
        !(parent?.type === "UnaryExpression" && parent.operator === "typeof")
      )
        report(
          n,
          `\`${identifier}\` is not defined in the sandbox: ${MISSING_APIS.get(identifier) ?? "declare it, or use the built-in JavaScript objects and ctx"}`,
        );
      break;
    }
    case "ThisExpression": {
      const owner = [...ancestors]
        .reverse()
        .find((a) =>
          ["FunctionDeclaration", "FunctionExpression", "PropertyDefinition", "StaticBlock"].includes(a.type),
        );
      if (owner === undefined || owner === tool)
        report(n, `\`this\` in the tool function is the global object and is refused; use args and ctx`);
      break;
    }
    case "MemberExpression": {
      const property = staticName(n.property as AnyNode, n.computed as boolean);
      const advice = property === undefined ? undefined : REFUSED_PROPERTIES.get(property);
      if (advice !== undefined) report(n.property as AnyNode, `\`.${property}\` is refused: ${advice}`);
      break;
    }
    case "Property": {
      const key = staticName(n.key as AnyNode, n.computed as boolean);
      if (key === "__proto__" && parent?.type === "ObjectExpression" && !n.computed)
        report(n, "a __proto__ key in an object literal sets its prototype and is refused");
      break;
    }
    case "ObjectPattern": {
      // acorn-walk does not visit the Property nodes of a pattern, so their keys are checked here.
      for (const property of n.properties as AnyNode[]) {
        const key = staticName(property.key as AnyNode, property.computed as boolean);
        const advice = key === undefined ? undefined : REFUSED_PROPERTIES.get(key);
        if (property.type === "Property" && advice !== undefined)
          report(property, `destructuring \`${key}\` is refused: ${advice}`);
      }
      break;
    }
    case "AssignmentExpression":
    case "UpdateExpression":
    case "UnaryExpression": {
      if (n.type === "UnaryExpression" && n.operator !== "delete") break;
      const target = (n.type === "AssignmentExpression" ? n.left : n.argument) as AnyNode;
      if (target.type === "Identifier" && BUILTINS.has(target.name as string))
        report(target, `assigning to the built-in ${target.name} is refused; use a local variable`);
      if (target.type !== "MemberExpression") break;
      const { root, throughPrototype } = chainOf(target);
      if (throughPrototype)
        report(target, "writing to a prototype is refused (prototype pollution); build plain objects");
      else if (root.type === "Identifier" && BUILTINS.has(root.name as string))
        report(target, `modifying the built-in ${root.name} is refused; use your own objects`);
      break;
    }
    case "CallExpression": {
      const callee = n.callee as AnyNode;
      if (callee.type !== "MemberExpression") break;
      const method = staticName(callee.property as AnyNode, callee.computed as boolean);
      if (!["defineProperty", "defineProperties", "assign"].includes(method ?? "")) break;
      const first = (n.arguments as AnyNode[])[0];
      if (first === undefined) break;
      const chain = chainOf(first);
      if (
        chain.throughPrototype ||
        (chain.root.type === "Identifier" && BUILTINS.has(chain.root.name as string) && first === chain.root)
      )
        report(n, `Object.${method} on a built-in or a prototype is refused; use your own objects`);
      break;
    }
  }
}
