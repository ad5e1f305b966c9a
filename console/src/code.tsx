// Source code highlighted by highlight.js (its core with the JavaScript grammar only, to keep the bundle
// small). highlight.js escapes the code it is given, so its HTML output holds no markup from the tool.
import hljs from "highlight.js/lib/core";
import javascript from "highlight.js/lib/languages/javascript";
import "highlight.js/styles/github.css";
import { ScrollRegion } from "./ui.tsx";

hljs.registerLanguage("javascript", javascript);

export function Code({ code, label }: { code: string; label: string }) {
  const html = hljs.highlight(code, { language: "javascript", ignoreIllegals: true }).value;
  return (
    <ScrollRegion class="code" label={label}>
      <pre>
        <code class="hljs language-javascript" dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </ScrollRegion>
  );
}
