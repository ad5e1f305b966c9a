// The console's frame: sign-in, then one page with the five sections (Catalog, Route, Evaluate, Review,
// Operations), each a named landmark reached from the navigation. All of them are in the document at once,
// so a section is a link away and a keyboard user can move between them with the landmarks.
import "./locale.ts";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError, api, errorText, storedKey, storeKey } from "./api.ts";
import { CatalogSection } from "./catalog.tsx";
import { EvaluateSection } from "./evaluate.tsx";
import { OperationsSection } from "./operations.tsx";
import { ReviewSection } from "./review.tsx";
import { RouteSection } from "./route.tsx";
import type { Whoami } from "./shapes.ts";
import "./styles.css";

const SECTIONS = [
  { id: "catalog", name: "Catalog" },
  { id: "route", name: "Route" },
  { id: "evaluate", name: "Evaluate" },
  { id: "review", name: "Review" },
  { id: "operations", name: "Operations" },
] as const;

type Session =
  | { state: "checking"; note?: string }
  | { state: "signed-out"; problem?: string }
  | { state: "signed-in"; who: Whoami; keyless: boolean };

/** Who the stored key (or no key) is; a key without the maintainer role is refused here, as the API would. */
async function identify(): Promise<Session> {
  const key = storedKey();
  try {
    const who = await api<Whoami>("GET", "/v1/whoami", undefined, key);
    if (who.role !== "maintainer") {
      storeKey(undefined);
      return {
        state: "signed-out",
        problem: "This key has the agent role: the console needs a maintainer key.",
      };
    }
    return { state: "signed-in", who, keyless: who.id === "local" };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      if (key) storeKey(undefined);
      return { state: "signed-out", ...(key ? { problem: `Sign-in refused: ${error.message}.` } : {}) };
    }
    // Still loading its index: ask again shortly rather than show a sign-in form that cannot work yet.
    if (error instanceof ApiError && error.status === 503 && error.code === "not_ready")
      return { state: "checking", note: error.message };
    return { state: "signed-out", problem: errorText(error) };
  }
}

const RETRY_MS = 1_000;

function SignIn({ problem, onSignIn }: { problem?: string | undefined; onSignIn: (key: string) => void }) {
  const [key, setKey] = useState("");
  return (
    <main id="main" class="sign-in">
      <h1>Switchboard console</h1>
      <form
        aria-labelledby="sign-in-heading"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) onSignIn(key.trim());
        }}
      >
        <h2 id="sign-in-heading">Maintainer sign-in</h2>
        <p>
          Paste a maintainer key (one of <code>SWITCHBOARD_MAINTAINER_KEYS</code>). It is kept in this tab
          only and sent to this service alone.
        </p>
        <label for="key">Maintainer key</label>
        <input
          id="key"
          name="key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
        />
        <button type="submit">Sign in</button>
        <p role="alert" class="problem">
          {problem ?? ""}
        </p>
      </form>
    </main>
  );
}

function Console({ who, keyless, onSignOut }: { who: Whoami; keyless: boolean; onSignOut: () => void }) {
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <h1>Switchboard console</h1>
        <p class="who">
          {keyless ? "Local operator (no keys configured, loopback only)" : `Signed in as ${who.id}`}
        </p>
        {keyless ? null : (
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        )}
      </header>
      <nav aria-label="Sections" class="sections">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <CatalogSection />
        <RouteSection />
        <EvaluateSection />
        <ReviewSection />
        <OperationsSection />
      </main>
    </>
  );
}

function App() {
  const [session, setSession] = useState<Session>({ state: "checking" });
  useEffect(() => {
    if (session.state !== "checking") return;
    const timer = setTimeout(() => void identify().then(setSession), session.note ? RETRY_MS : 0);
    return () => clearTimeout(timer);
  }, [session]);
  if (session.state === "checking")
    return (
      <p class="boot" role="status">
        {session.note ? `The service is starting (${session.note}); trying again…` : "Checking who you are…"}
      </p>
    );
  if (session.state === "signed-out")
    return (
      <SignIn
        problem={session.problem}
        onSignIn={(key) => {
          storeKey(key);
          setSession({ state: "checking" });
        }}
      />
    );
  return (
    <Console
      who={session.who}
      keyless={session.keyless}
      onSignOut={() => {
        storeKey(undefined);
        setSession({ state: "signed-out" });
      }}
    />
  );
}

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  render(<App />, root);
}
