/**
 * What binds a witnessed log's record: the log's key it was made under and this witness's keys
 * that cosigned it. One origin, one key (the witness network's rule): a list that names another
 * key for a known origin does not move the record to it, nor does a witness of other keys (a copy
 * of the database elsewhere) take it over. Such an origin is refused until an operator retires it
 * (npm run admin -- witness-retire <origin>), which forgets the record. Null fields (records made
 * before records were bound) refuse nothing: they are bound at the next cosignature.
 */
export interface RecordKeys {
  logVkey: string | null;
  witnessVkeys: string | null;
}

/** Why the record of a log listed with `listedVkey` is refused to the witness of `witnessVkeys`, or null when it is not. */
export function refusalOf(record: RecordKeys | null, listedVkey: string, witnessVkeys: string): string | null {
  if (!record) return null;
  if (record.logVkey !== null && record.logVkey !== listedVkey)
    return `the log list names the key ${listedVkey} for this origin, and this witness's record of it was made under ${record.logVkey}`;
  if (record.witnessVkeys !== null && record.witnessVkeys !== witnessVkeys)
    return "this witness's record of the log was made by other witness keys (a copy of another witness's database)";
  return null;
}
