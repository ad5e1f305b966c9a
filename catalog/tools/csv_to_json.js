// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function csv_to_json(args) {
  // RFC 4180 parsing by hand: the isolate cannot load npm packages, and the grammar is small.
  const { csv } = args;
  const header = args.header ?? true;
  const inferTypes = args.infer_types ?? true;
  // The whole file is parsed (row_count is exact) but at most max_rows rows are returned: a 1 MB CSV can
  // turn into more JSON than a result may hold.
  const maxRows = args.max_rows ?? 1000;
  if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > 10000)
    throw new Error("max_rows must be an integer from 1 to 10000");
  if (typeof csv !== "string") throw new Error("csv must be a string");
  if (csv.length > 1_000_000) throw new Error("csv is longer than 1,000,000 characters");
  const firstLine = csv.split(/\r?\n/, 1)[0] ?? "";
  const delimiter =
    args.delimiter ??
    [",", ";", "\t", "|"].map((d) => [d, firstLine.split(d).length]).sort((a, b) => b[1] - a[1])[0][0];
  if (
    typeof delimiter !== "string" ||
    delimiter.length !== 1 ||
    delimiter === '"' ||
    /[\r\n]/.test(delimiter)
  )
    throw new Error("delimiter must be a single character other than a quote or newline");

  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  let line = 1;
  for (let k = 0; k < csv.length; k++) {
    const c = csv[k];
    if (quoted) {
      if (c === '"' && csv[k + 1] === '"') {
        field += '"';
        k++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field === "") quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && csv[k + 1] === "\n") k++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      line++;
    } else field += c;
  }
  if (quoted) throw new Error(`unterminated quoted field starting before line ${line}`);
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const data = rows.filter((r) => !(r.length === 1 && r[0] === ""));
  if (data.length === 0) throw new Error("csv has no rows");

  const convert = (value) => {
    if (!inferTypes) return value;
    const v = value.trim();
    if (v === "") return null;
    if (/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(v)) return Number(v);
    if (/^(true|false)$/i.test(v)) return v.toLowerCase() === "true";
    return value;
  };
  let columns;
  let body;
  if (header) {
    columns = data[0].map((name, k) => name.trim() || `column_${k + 1}`);
    const seen = new Set();
    for (const name of columns) {
      if (seen.has(name)) throw new Error(`duplicate column name "${name}" in the header row`);
      seen.add(name);
    }
    body = data.slice(1);
  } else {
    const width = Math.max(...data.map((r) => r.length));
    columns = Array.from({ length: width }, (_, k) => `column_${k + 1}`);
    body = data;
  }
  body.forEach((r, index) => {
    if (header && r.length > columns.length)
      throw new Error(`row ${index + 2} has ${r.length} fields but the header has ${columns.length}`);
  });
  const records = body.slice(0, maxRows).map((r) => {
    // fromEntries defines own properties, so a column named like a builtin ("toString") cannot clash.
    return Object.fromEntries(columns.map((name, k) => [name, k < r.length ? convert(r[k]) : null]));
  });
  return { columns, row_count: body.length, truncated: body.length > maxRows, delimiter, rows: records };
}
