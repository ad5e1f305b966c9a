// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function calculate(args) {
  // A small recursive-descent parser instead of eval: the sandbox policy forbids eval/Function, and a
  // parser lets us accept only arithmetic and name the exact position of a mistake.
  const source = args.expression;
  if (typeof source !== "string" || source.trim() === "")
    throw new Error("expression must be a non-empty string");
  if (source.length > 1000) throw new Error("expression is longer than 1000 characters");

  const constants = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };
  const functions = {
    sqrt: [1, Math.sqrt],
    cbrt: [1, Math.cbrt],
    abs: [1, Math.abs],
    sin: [1, Math.sin],
    cos: [1, Math.cos],
    tan: [1, Math.tan],
    asin: [1, Math.asin],
    acos: [1, Math.acos],
    atan: [1, Math.atan],
    ln: [1, Math.log],
    log: [1, Math.log10],
    log10: [1, Math.log10],
    log2: [1, Math.log2],
    exp: [1, Math.exp],
    floor: [1, Math.floor],
    ceil: [1, Math.ceil],
    round: [1, Math.round],
    min: [-1, Math.min],
    max: [-1, Math.max],
    pow: [2, Math.pow],
  };

  const tokens = [];
  const tokenPattern =
    /\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|[-+*/%^(),!×÷]))/y;
  let at = 0;
  while (at < source.length) {
    const next = at + source.slice(at).search(/\S|$/);
    if (next >= source.length) break;
    tokenPattern.lastIndex = at;
    const m = tokenPattern.exec(source);
    if (!m) throw new Error(`unexpected character "${source[next]}" at position ${next + 1}`);
    const position = m.index + m[0].search(/\S/) + 1;
    if (m[1] !== undefined) tokens.push({ type: "number", value: Number(m[1]), position });
    else if (m[2] !== undefined) tokens.push({ type: "name", value: m[2].toLowerCase(), position });
    else {
      const op = m[3] === "**" ? "^" : m[3] === "×" ? "*" : m[3] === "÷" ? "/" : m[3];
      tokens.push({ type: "op", value: op, position });
    }
    at = tokenPattern.lastIndex;
  }
  let i = 0;
  const peek = () => tokens[i];
  const fail = (message) => {
    const t = tokens[i];
    throw new Error(t ? `${message} at position ${t.position}` : `${message} at the end of the expression`);
  };
  const takeOp = (op) => {
    const t = tokens[i];
    if (t && t.type === "op" && t.value === op) {
      i++;
      return true;
    }
    return false;
  };

  // expression := term (('+'|'-') term)*
  function expression() {
    let value = term();
    for (;;) {
      if (takeOp("+")) value += term();
      else if (takeOp("-")) value -= term();
      else return value;
    }
  }
  // term := unary (('*'|'/'|'%') unary)*   (implicit multiplication: "2pi", "3(4+1)")
  function term() {
    let value = unary();
    for (;;) {
      if (takeOp("*")) value *= unary();
      else if (takeOp("/")) {
        const divisor = unary();
        if (divisor === 0) throw new Error("division by zero");
        value /= divisor;
      } else if (takeOp("%")) {
        const divisor = unary();
        if (divisor === 0) throw new Error("modulo by zero");
        value %= divisor;
      } else {
        const t = peek();
        if (t && (t.type === "name" || (t.type === "op" && t.value === "("))) value *= unary();
        else return value;
      }
    }
  }
  // unary := ('-'|'+') unary | power
  function unary() {
    if (takeOp("-")) return -unary();
    if (takeOp("+")) return unary();
    return power();
  }
  // power := postfix ('^' unary)?   (right associative, binds tighter than unary minus on its left)
  function power() {
    const base = postfix();
    if (takeOp("^")) return base ** unary();
    return base;
  }
  function postfix() {
    let value = primary();
    while (takeOp("!")) {
      if (!Number.isInteger(value) || value < 0 || value > 170)
        throw new Error("factorial needs an integer from 0 to 170");
      let f = 1;
      for (let k = 2; k <= value; k++) f *= k;
      value = f;
    }
    return value;
  }
  function primary() {
    const t = peek();
    if (!t) fail("expected a number");
    if (t.type === "number") {
      i++;
      return t.value;
    }
    if (t.type === "op" && t.value === "(") {
      i++;
      const value = expression();
      if (!takeOp(")")) fail('expected ")"');
      return value;
    }
    if (t.type === "name") {
      i++;
      if (Object.hasOwn(functions, t.value)) {
        const [arity, fn] = functions[t.value];
        if (!takeOp("(")) fail(`expected "(" after ${t.value}`);
        const values = [expression()];
        while (takeOp(",")) values.push(expression());
        if (!takeOp(")")) fail('expected ")"');
        if (arity >= 0 && values.length !== arity)
          throw new Error(
            `${t.value} takes ${arity} argument${arity === 1 ? "" : "s"}, got ${values.length}`,
          );
        return fn(...values);
      }
      if (Object.hasOwn(constants, t.value)) return constants[t.value];
      throw new Error(`unknown name "${t.value}" at position ${t.position}`);
    }
    return fail(`unexpected "${t.value}"`);
  }

  if (tokens.length === 0) throw new Error("expression must be a non-empty string");
  const result = expression();
  if (i < tokens.length) fail(`unexpected "${tokens[i].value}"`);
  if (!Number.isFinite(result)) throw new Error("the result is not a finite number");
  // Round away binary floating-point noise (0.1 + 0.2) without hiding real digits.
  return { expression: source, result: Number(result.toPrecision(15)) };
}
