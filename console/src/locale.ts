// Imported first: a browser started under a POSIX locale reports navigator.language as "en-US@posix",
// which Intl refuses, and uPlot builds its number format from it as it loads. Such a tag is replaced by the
// language Intl itself falls back to, so the console loads in any environment.
try {
  new Intl.NumberFormat(navigator.language);
} catch {
  Object.defineProperty(navigator, "language", {
    value: new Intl.NumberFormat().resolvedOptions().locale,
    configurable: true,
  });
}
