/**
 * Ids are `ID` strings on the wire and integers in storage, compared as numbers as REST's path ids
 * are ("01" is 1). Only decimal digits name a record; anything else ("abc", "0", "-1", "1.5", "1e0")
 * names none, so a lookup answers null rather than an error.
 */
export function storageId(id: string | number): number | undefined {
  const text = String(id);
  if (!/^[0-9]{1,30}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}
