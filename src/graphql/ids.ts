/**
 * Ids are `ID` strings on the wire and integers in storage. Only the canonical decimal form of a
 * positive safe integer names a record; anything else ("abc", "0", "-1", "1.5") names none, so a
 * lookup answers null rather than an error.
 */
export function storageId(id: string | number): number | undefined {
  const text = String(id);
  if (!/^[1-9][0-9]{0,15}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
