// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function color_convert(args) {
  const { color } = args;
  if (typeof color !== "string" || color.trim() === "") throw new Error("color must be a non-empty string");
  const named = {
    black: "000000",
    white: "ffffff",
    red: "ff0000",
    lime: "00ff00",
    green: "008000",
    blue: "0000ff",
    yellow: "ffff00",
    cyan: "00ffff",
    aqua: "00ffff",
    magenta: "ff00ff",
    fuchsia: "ff00ff",
    gray: "808080",
    grey: "808080",
    silver: "c0c0c0",
    maroon: "800000",
    olive: "808000",
    purple: "800080",
    teal: "008080",
    navy: "000080",
    orange: "ffa500",
    pink: "ffc0cb",
    brown: "a52a2a",
    gold: "ffd700",
    indigo: "4b0082",
    violet: "ee82ee",
    coral: "ff7f50",
    salmon: "fa8072",
    crimson: "dc143c",
    turquoise: "40e0d0",
    beige: "f5f5dc",
    lavender: "e6e6fa",
    tomato: "ff6347",
    chocolate: "d2691e",
    skyblue: "87ceeb",
  };
  const input = color.trim().toLowerCase();
  let r;
  let g;
  let b;
  const hex = Object.hasOwn(named, input) ? named[input] : input.replace(/^#/, "");
  const rgbMatch =
    /^rgba?\(\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(input);
  const hslMatch =
    /^hsla?\(\s*(-?[\d.]+)(?:deg)?\s*[, ]\s*([\d.]+)%\s*[, ]\s*([\d.]+)%\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(
      input,
    );
  if (/^[0-9a-f]{3}$|^[0-9a-f]{6}$/.test(hex)) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
    [r, g, b] = [0, 2, 4].map((k) => Number.parseInt(full.slice(k, k + 2), 16));
  } else if (rgbMatch) {
    [r, g, b] = rgbMatch.slice(1, 4).map(Number);
    if ([r, g, b].some((v) => v > 255)) throw new Error("rgb components must be from 0 to 255");
  } else if (hslMatch) {
    const h = ((Number(hslMatch[1]) % 360) + 360) % 360;
    const s = Number(hslMatch[2]) / 100;
    const l = Number(hslMatch[3]) / 100;
    if (s > 1 || l > 1) throw new Error("hsl saturation and lightness must be from 0% to 100%");
    const k = (n) => (n + h / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
    [r, g, b] = [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
  } else {
    throw new Error(
      `unrecognised colour "${color}": use #rgb, #rrggbb, rgb(r, g, b), hsl(h, s%, l%) or a CSS colour name`,
    );
  }

  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) {
    const [rn, gn, bn] = [r / 255, g / 255, b / 255];
    h = max === rn ? ((gn - bn) / d) % 6 : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
    h = Math.round(h * 60 + 360) % 360;
  }
  const kBlack = 1 - max;
  const cmyk =
    kBlack === 1
      ? [0, 0, 0, 100]
      : [r, g, b]
          .map((v) => Math.round(((1 - v / 255 - kBlack) / (1 - kBlack)) * 100))
          .concat(Math.round(kBlack * 100));
  // WCAG 2.x relative luminance and contrast ratios, to say which text colour reads better on it.
  const lin = (v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const contrastWhite = 1.05 / (luminance + 0.05);
  const contrastBlack = (luminance + 0.05) / 0.05;
  const toHex = (v) => v.toString(16).padStart(2, "0");
  return {
    hex: `#${toHex(r)}${toHex(g)}${toHex(b)}`,
    rgb: { r, g, b },
    hsl: { h, s: Math.round(s * 100), l: Math.round(l * 100) },
    cmyk: { c: cmyk[0], m: cmyk[1], y: cmyk[2], k: cmyk[3] },
    css: { rgb: `rgb(${r}, ${g}, ${b})`, hsl: `hsl(${h}, ${Math.round(s * 100)}%, ${Math.round(l * 100)}%)` },
    contrast_on_white: Math.round(contrastWhite * 100) / 100,
    contrast_on_black: Math.round(contrastBlack * 100) / 100,
    readable_text_color: contrastWhite >= contrastBlack ? "white" : "black",
  };
}
