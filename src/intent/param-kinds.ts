// What kind of free-text value a parameter takes, from the words of its name (and the start of its
// description): a place, a person, an organisation; and whether it is where something starts or ends. These
// are English words for kinds of things, not the names of any tool or parameter: "start_location",
// "origin_city" and "departure airport" all read as a place where something starts.
import type { Param } from "./filler.ts";

const PLACE = new Set(
  "location locations city cities country countries place places destination destinations origin region state area address venue town province county continent district neighborhood neighbourhood site park lake river mountain airport station departure arrival where nation capital village island territory zone".split(
    " ",
  ),
);
const PERSON = new Set(
  "person people artist author player director actor actress singer composer painter scientist athlete musician celebrity customer employee patient student teacher owner manager coach politician president writer inventor creator individual philosopher explorer king queen emperor leader ruler founder band".split(
    " ",
  ),
);
const ORGANISATION = new Set(
  "company companies team teams organization organisation brand university school club firm business corporation institution league bank store restaurant hotel publisher manufacturer studio label agency".split(
    " ",
  ),
);
/** Words of a parameter's name that say nothing of what it names ("name", "full_name"): its description does. */
const GENERIC = new Set("name names full value values text query input string the of".split(" "));
const STARTS = new Set("from origin start source departure home begin beginning initial".split(" "));
const ENDS = new Set("to destination end target arrival final finish".split(" "));

export interface ParamKind {
  place: boolean;
  person: boolean;
  organisation: boolean;
  /** Where something starts (from, origin, source) or ends (to, destination, target), or neither. */
  direction?: "start" | "end";
  /**
   * The kind is read from the description alone: "Gender of the player" names whose gender, not a person, so
   * such a parameter takes a name less surely than one whose own words name its kind ("player_name").
   */
  described?: boolean;
}

/** The first words of a description ("The city where…", "Name of the artist"), which often name the kind. */
function leadingWords(param: Param): string[] {
  const description = typeof param.schema.description === "string" ? param.schema.description : "";
  return description
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .slice(0, 6);
}

export function kindOf(param: Param): ParamKind {
  const own = param.words;
  const words = [...own, ...leadingWords(param)];
  const any = (set: Set<string>, list: string[]) => list.some((w) => set.has(w));
  const kind: ParamKind = {
    place: any(PLACE, own) || (!any(PERSON, own) && !any(ORGANISATION, own) && any(PLACE, words)),
    person: any(PERSON, own) || (!any(PLACE, own) && !any(ORGANISATION, own) && any(PERSON, words)),
    organisation:
      any(ORGANISATION, own) || (!any(PLACE, own) && !any(PERSON, own) && any(ORGANISATION, words)),
  };
  if (!any(PLACE, own) && !any(PERSON, own) && !any(ORGANISATION, own) && own.some((w) => !GENERIC.has(w)))
    kind.described = true;
  if (any(STARTS, own)) kind.direction = "start";
  else if (any(ENDS, own)) kind.direction = "end";
  return kind;
}
