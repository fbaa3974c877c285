/** The built-in greeting table, keyed by lower-case ISO 639-1 language code. */
const GREETINGS: Readonly<Record<string, string>> = Object.freeze({
  en: 'Hello',
  fr: 'Bonjour',
  es: 'Hola',
  de: 'Hallo',
  it: 'Ciao',
  pt: 'Olá',
  nl: 'Hallo',
  ja: 'こんにちは',
  zh: '你好',
  ar: 'مرحبا',
  ru: 'Привет',
  hi: 'नमस्ते',
  ko: '안녕하세요',
  sv: 'Hej',
  pl: 'Cześć',
  tr: 'Merhaba',
});

/**
 * Finds the greeting for a language tag: case-insensitive, and a region or script subtag falls
 * back to its language (`fr-CA` and `FR_ca` answer as `fr`).
 */
export function findGreeting(tag: string): { lang: string; greeting: string } | undefined {
  const lang = tag.trim().toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(GREETINGS, lang) ? { lang, greeting: GREETINGS[lang] } : undefined;
}
