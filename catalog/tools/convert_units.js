// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function convert_units(args) {
  const { value, from, to } = args;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error("value must be a finite number");
  // Each unit: [category, factor to the category's base unit, ...aliases]. Temperature is affine, so its
  // units carry [scale, offset] to kelvin instead of a factor.
  const table = {
    length: {
      m: [1, "meter", "meters", "metre", "metres"],
      km: [1000, "kilometer", "kilometers", "kilometre", "kilometres"],
      cm: [0.01, "centimeter", "centimeters", "centimetre", "centimetres"],
      mm: [0.001, "millimeter", "millimeters", "millimetre", "millimetres"],
      um: [1e-6, "micrometer", "micrometers", "micron", "microns", "µm"],
      nm: [1e-9, "nanometer", "nanometers"],
      mi: [1609.344, "mile", "miles"],
      yd: [0.9144, "yard", "yards"],
      ft: [0.3048, "foot", "feet"],
      in: [0.0254, "inch", "inches"],
      nmi: [1852, "nautical mile", "nautical miles"],
      ly: [9.4607304725808e15, "light year", "light years", "light-year", "light-years"],
      au: [149597870700, "astronomical unit", "astronomical units"],
    },
    mass: {
      kg: [1, "kilogram", "kilograms", "kilo", "kilos"],
      g: [0.001, "gram", "grams"],
      mg: [1e-6, "milligram", "milligrams"],
      t: [1000, "tonne", "tonnes", "metric ton", "metric tons"],
      lb: [0.45359237, "lbs", "pound", "pounds"],
      oz: [0.028349523125, "ounce", "ounces"],
      st: [6.35029318, "stone", "stones"],
      "us ton": [907.18474, "short ton", "short tons"],
    },
    volume: {
      l: [1, "liter", "liters", "litre", "litres"],
      ml: [0.001, "milliliter", "milliliters", "millilitre", "millilitres"],
      cl: [0.01, "centiliter", "centiliters", "centilitre", "centilitres"],
      m3: [1000, "cubic meter", "cubic meters", "cubic metre", "cubic metres"],
      gal: [3.785411784, "gallon", "gallons", "us gallon", "us gallons"],
      "imp gal": [4.54609, "imperial gallon", "imperial gallons", "uk gallon", "uk gallons"],
      qt: [0.946352946, "quart", "quarts"],
      pt: [0.473176473, "pint", "pints", "us pint", "us pints"],
      cup: [0.2365882365, "cups"],
      "fl oz": [0.0295735295625, "floz", "fluid ounce", "fluid ounces"],
      tbsp: [0.01478676478125, "tablespoon", "tablespoons"],
      tsp: [0.00492892159375, "teaspoon", "teaspoons"],
    },
    temperature: {
      k: [[1, 0], "kelvin"],
      c: [[1, 273.15], "°c", "celsius", "centigrade"],
      f: [[5 / 9, 459.67 * (5 / 9)], "°f", "fahrenheit"],
    },
    speed: {
      "m/s": [1, "mps", "meters per second", "metres per second"],
      "km/h": [1 / 3.6, "kph", "kmh", "kilometers per hour", "kilometres per hour"],
      mph: [0.44704, "miles per hour"],
      kn: [1852 / 3600, "knot", "knots"],
      "ft/s": [0.3048, "fps", "feet per second"],
    },
    area: {
      m2: [1, "square meter", "square meters", "square metre", "square metres", "sqm"],
      km2: [1e6, "square kilometer", "square kilometers", "square kilometre", "square kilometres"],
      ft2: [0.09290304, "square foot", "square feet", "sqft"],
      mi2: [2589988.110336, "square mile", "square miles"],
      ha: [10000, "hectare", "hectares"],
      acre: [4046.8564224, "acres"],
    },
    time: {
      s: [1, "sec", "second", "seconds"],
      ms: [0.001, "millisecond", "milliseconds"],
      min: [60, "minute", "minutes"],
      h: [3600, "hr", "hour", "hours"],
      d: [86400, "day", "days"],
      wk: [604800, "week", "weeks"],
      yr: [31557600, "year", "years"],
    },
    data: {
      b: [1, "byte", "bytes"],
      bit: [0.125, "bits"],
      kb: [1000, "kilobyte", "kilobytes"],
      mb: [1e6, "megabyte", "megabytes"],
      gb: [1e9, "gigabyte", "gigabytes"],
      tb: [1e12, "terabyte", "terabytes"],
      kib: [1024, "kibibyte", "kibibytes"],
      mib: [1048576, "mebibyte", "mebibytes"],
      gib: [1073741824, "gibibyte", "gibibytes"],
      tib: [1099511627776, "tebibyte", "tebibytes"],
    },
    pressure: {
      pa: [1, "pascal", "pascals"],
      kpa: [1000, "kilopascal", "kilopascals"],
      bar: [100000, "bars"],
      atm: [101325, "atmosphere", "atmospheres"],
      psi: [6894.757293168, "pounds per square inch"],
      mmhg: [133.322387415, "millimeters of mercury"],
      hpa: [100, "hectopascal", "hectopascals", "mbar", "millibar"],
    },
    energy: {
      j: [1, "joule", "joules"],
      kj: [1000, "kilojoule", "kilojoules"],
      cal: [4.184, "calorie", "calories"],
      kcal: [4184, "kilocalorie", "kilocalories"],
      wh: [3600, "watt hour", "watt hours"],
      kwh: [3600000, "kilowatt hour", "kilowatt hours"],
      btu: [1055.05585262, "btus"],
    },
  };

  const lookup = new Map();
  for (const [category, units] of Object.entries(table)) {
    for (const [symbol, [factor, ...aliases]] of Object.entries(units)) {
      for (const key of [symbol, ...aliases]) lookup.set(key, { category, symbol, factor });
    }
  }
  const find = (raw, field) => {
    if (typeof raw !== "string" || raw.trim() === "")
      throw new Error(`${field} must be a unit name such as "km" or "°F"`);
    const key = raw
      .trim()
      .toLowerCase()
      .replace(/\s+/g, " ")
      .replace(/^(?:degrees?|deg\.?) /, "")
      .replace(/²/g, "2")
      .replace(/³/g, "3");
    const unit = lookup.get(key) ?? lookup.get(key.replace(/s$/, ""));
    if (!unit) throw new Error(`${field}: unknown unit "${raw}"`);
    return unit;
  };
  const source = find(from, "from");
  const target = find(to, "to");
  if (source.category !== target.category)
    throw new Error(
      `cannot convert ${source.category} (${source.symbol}) to ${target.category} (${target.symbol})`,
    );

  let result;
  if (source.category === "temperature") {
    const kelvin = value * source.factor[0] + source.factor[1];
    if (kelvin < -1e-9) throw new Error("the temperature is below absolute zero");
    result = (kelvin - target.factor[1]) / target.factor[0];
  } else {
    result = (value * source.factor) / target.factor;
  }
  return {
    value,
    from: source.symbol,
    to: target.symbol,
    category: source.category,
    result: Number(result.toPrecision(12)),
  };
}
