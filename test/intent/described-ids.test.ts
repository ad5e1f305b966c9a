// Identifiers a parameter's description shows the shape of, the last four digits of a card or an account,
// a "<thing>_name" parameter beside its thing, a bare tool's one identifier, and dates in the form a
// description asks for; on schemas this test makes up.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";
import { num, schema, str } from "./made-up-schemas.ts";

test("an identifier of the shape the description's example shows goes to it, whatever word is before", () => {
  const redeem = schema({ member_id: str("Loyalty member ID, e.g. 'LY-00001'."), points: num("Points") }, [
    "member_id",
    "points",
  ]);
  const r = fillArguments("Redeem 12,000 points from loyalty account LY-55820 as store credit.", redeem);
  assert.equal(r.arguments.member_id, "LY-55820");
  // Two tokens of the shape: the words must tell them apart, so neither is placed by shape.
  const two = fillArguments("Move points from LY-10234 or LY-10871", redeem);
  assert.equal(two.arguments.member_id, undefined);
});

test("four digits after 'ending in' go to the last-four parameter, by from and to when there are two", () => {
  const freeze = schema({ card_last4: str("Last four digits of the card.") }, ["card_last4"]);
  assert.equal(
    fillArguments("I lost my debit card ending in 7719. Freeze it.", freeze).arguments.card_last4,
    "7719",
  );
  const transfer = schema(
    {
      from_account_last4: str("Last 4 digits of the source account"),
      to_account_last4: str("Last 4 digits of the destination account"),
      amount: num("Amount"),
    },
    ["from_account_last4", "to_account_last4", "amount"],
  );
  const r = fillArguments(
    "Move $1,500 from my checking ending in 4421 to my savings ending in 9083.",
    transfer,
  );
  assert.equal(r.arguments.from_account_last4, "4421");
  assert.equal(r.arguments.to_account_last4, "9083");
});

test("a hyphenated name before its thing goes to the '<thing>_name' parameter", () => {
  const scale = schema(
    {
      deployment_name: str("Name of the deployment."),
      replicas: { type: "integer", description: "Replicas" },
    },
    ["deployment_name", "replicas"],
  );
  const r = fillArguments("Scale the checkout-api deployment up to 6 replicas.", scale);
  assert.equal(r.arguments.deployment_name, "checkout-api");
});

test("a bare tool's one identifier of capitals and digits goes to its one open identifier parameter", () => {
  const service = schema({ vehicle_id: str("Fleet vehicle identifier."), date: str("Service date") }, [
    "vehicle_id",
  ]);
  const r = fillArguments("Book truck TRK-2210 in for a brake inspection.", service, {}, { bare: true });
  assert.equal(r.arguments.vehicle_id, "TRK-2210");
  // A name with a short number ("AES-256") or a measure ("14-character") is no identifier; nor is anything for a described tool.
  const spec = fillArguments("Encrypt it with AES-256 on a 14-character key.", service, {}, { bare: true });
  assert.equal(spec.arguments.vehicle_id, undefined);
  assert.equal(fillArguments("Book truck TRK-2210 in.", service).arguments.vehicle_id, undefined);
});

test("a date goes in the form its description asks for", () => {
  const air = (description: string) => schema({ date: str(description) }, ["date"]);
  const ask = (description: string) => fillArguments("air quality in London on 2022/08/16", air(description));
  assert.equal(ask("The date (month-day-year).").arguments.date, "08-16-2022");
  assert.equal(ask("Date as DD/MM/YYYY").arguments.date, "16/08/2022");
  assert.equal(ask("Date in YYYY-MM-DD format").arguments.date, "2022-08-16");
  assert.equal(ask("The date").arguments.date, "2022-08-16");
});
