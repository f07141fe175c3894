import type { MakamKey } from './music-keys';

/**
 * The makam facts that the practice tools (web/features/tools) and the listening analysis
 * (contract/listening, browser and Node alike) share: the 53-koma grid of the Arel-Ezgi-Uzdilek
 * (AEU) system, its perde names, the ahenk and the makam library. Pure: no DOM, no Node APIs.
 * docs/decisions/practice-tools.md and docs/decisions/listening.md say where each is used.
 *
 * Sources (see /work/shared/MAKAM.md, /work/shared/LISTENING.md):
 * - One koma (Holdrian comma) = 1/53 octave ≈ 22.6415 cents; koma = 53 · log2(f / f_ref).
 * - Accidentals in koma: koma 1, bakiye 4, küçük mücennep 5, büyük mücennep 8 — as LilyPond's
 *   `makam.ly` (Adam Good) defines BAKIYE 4/9, KUCUK 5/9, BUYUKMUCENNEB 8/9 of a whole tone (9 koma).
 * - The 24 perde per octave and their places follow from those accidentals as AEU writes them
 *   (e.g. Hicaz: "si bakiye bemolü, do bakiye diyezi" → Dik Kürdî 14, Nim Hicaz 26; Nihavend: "si ve
 *   mi küçük mücenneb bemolü" → Kürdî 13, Nim Hisar 35; repository balpa/TurkishRhythm data/data.js).
 * A teacher who reads a different table should say so: the numbers are in one place (PERDE, MAKAMS).
 */

export const KOMA_PER_OCTAVE = 53;
export const CENTS_PER_KOMA = 1200 / KOMA_PER_OCTAVE;

/** The adjustable concert pitch (A4), shared by both tuner modes, the drone and the analysis. */
export const A4_RANGE = { min: 415, max: 466, default: 440 } as const;

// ---------------------------------------------------------------------------------------------
// Perde: koma above Rast (Rast = 0, Gerdaniye = 53). AEU's 24 pitches per octave, with the
// lower (Yegâh …) and upper (Gerdaniye …) names that MAKAM.md lists; beyond, 'Kaba …' / 'Tiz …'.

export const PERDE: ReadonlyArray<{ koma: number; name: string }> = [
  { koma: -22, name: 'Yegâh' },
  { koma: -18, name: 'Nim Pest Hisar' },
  { koma: -17, name: 'Pest Hisar' },
  { koma: -14, name: 'Dik Pest Hisar' },
  { koma: -13, name: 'Hüseynî Aşiran' },
  { koma: -9, name: 'Acem Aşiran' },
  { koma: -8, name: 'Dik Acem Aşiran' },
  { koma: -5, name: 'Irak' },
  { koma: -4, name: 'Geveşt' },
  { koma: -1, name: 'Dik Geveşt' },
  { koma: 0, name: 'Rast' },
  { koma: 4, name: 'Nim Zirgüle' },
  { koma: 5, name: 'Zirgüle' },
  { koma: 8, name: 'Dik Zirgüle' },
  { koma: 9, name: 'Dügâh' },
  { koma: 13, name: 'Kürdî' },
  { koma: 14, name: 'Dik Kürdî' },
  { koma: 17, name: 'Segâh' },
  { koma: 18, name: 'Bûselik' },
  { koma: 21, name: 'Dik Bûselik' },
  { koma: 22, name: 'Çargâh' },
  { koma: 26, name: 'Nim Hicaz' },
  { koma: 27, name: 'Hicaz' },
  { koma: 30, name: 'Dik Hicaz' },
  { koma: 31, name: 'Nevâ' },
  { koma: 35, name: 'Nim Hisar' },
  { koma: 36, name: 'Hisar' },
  { koma: 39, name: 'Dik Hisar' },
  { koma: 40, name: 'Hüseynî' },
  { koma: 44, name: 'Acem' },
  { koma: 45, name: 'Dik Acem' },
  { koma: 48, name: 'Eviç' },
  { koma: 49, name: 'Mâhur' },
  { koma: 52, name: 'Dik Mâhur' },
  { koma: 53, name: 'Gerdaniye' },
  { koma: 57, name: 'Nim Şehnaz' },
  { koma: 58, name: 'Şehnaz' },
  { koma: 61, name: 'Dik Şehnaz' },
  { koma: 62, name: 'Muhayyer' },
  { koma: 66, name: 'Sünbüle' },
  { koma: 67, name: 'Dik Sünbüle' },
  { koma: 70, name: 'Tiz Segâh' },
  { koma: 71, name: 'Tiz Bûselik' },
  { koma: 74, name: 'Tiz Dik Bûselik' },
  { koma: 75, name: 'Tiz Çargâh' },
];

const LOWEST = PERDE[0]?.koma ?? -22;
const HIGHEST = PERDE[PERDE.length - 1]?.koma ?? 75;
const byKoma = new Map(PERDE.map((p) => [p.koma, p.name]));

/** The name of the grid step `step` koma above Rast, or null where AEU names none. */
export function perdeName(step: number): string | null {
  if (step >= LOWEST && step <= HIGHEST) return byKoma.get(step) ?? null;
  if (step > HIGHEST) {
    const base = perdeName(step - KOMA_PER_OCTAVE);
    return base ? `Tiz ${base.replace(/^Tiz /, '')}` : null;
  }
  const base = perdeName(step + KOMA_PER_OCTAVE);
  return base ? `Kaba ${base.replace(/^Kaba /, '')}` : null;
}

/** Koma above Rast of a perde name, or null. */
export function perdeKoma(name: string): number | null {
  return PERDE.find((p) => p.name === name)?.koma ?? null;
}

// ---------------------------------------------------------------------------------------------
// Ahenk: the instrument's pitch level. Turkish notation is written at Bolahenk; an instrument in
// another ahenk sounds the written perde lower. Offsets in semitones (sounding − written), from the
// ney sizes of the main ahenks: Bolâhenk nısfiye D "yerinden" (as written), Davud C, Şah B,
// Mansur A, Kız G, Müstahsen F, Süpürde E (neyzenahmetkaya.com, "Akortlarına Göre Ney Çeşitleri").
// Müstahsen and Süpürde are played as nısfiye (an octave up), hence +3 and +2 here.
// A Dügâh (written A4) sounds at A4 · 2^(offset/12) with A4 the concert pitch (AEU: A4 = Dügâh).

export const AHENKS = [
  { key: 'bolahenk', name: 'Bolahenk', semitones: 0 },
  { key: 'supurde', name: 'Süpürde', semitones: 2 },
  { key: 'mustahsen', name: 'Müstahsen', semitones: 3 },
  { key: 'davud', name: 'Davud', semitones: -2 },
  { key: 'sah', name: 'Şah', semitones: -3 },
  { key: 'mansur', name: 'Mansur', semitones: -5 },
  { key: 'kiz', name: 'Kız', semitones: -7 },
] as const;
export type AhenkKey = (typeof AHENKS)[number]['key'];

export const ahenkSemitones = (key: AhenkKey) => AHENKS.find((a) => a.key === key)?.semitones ?? 0;

/** Where Rast sounds, in Hz, for the concert pitch `a4` and the ahenk. */
export function rastFrequency(a4: number = A4_RANGE.default, ahenk: AhenkKey = 'bolahenk'): number {
  const dugah = a4 * 2 ** (ahenkSemitones(ahenk) / 12);
  return dugah * 2 ** (-9 / KOMA_PER_OCTAVE);
}

// ---------------------------------------------------------------------------------------------
// Makam library.
//
// `steps`: the ascending scale in koma from the durak, summing to 53 (a unit test checks); `extra`:
// perdes the makam also uses (descending or characteristic alternatives) that the listening
// analysis counts as the makam's own; `guclu`: the dominant; `seyir`: where a performance starts
// (çıkıcı: near the durak; inici-çıkıcı: near the güçlü; inici: near the tiz durak), a cue the
// analysis uses only to tell apart makams with the same scale. `practice`: where published
// performance practice differs from the AEU position (cents, signed), with its source; a hint shown
// next to a deviation, never a correction.
//
// Sources: the seven first makams after sonic-pi-net/sonic-pi PR #1705 / #2475 (MAKAM.md); durak,
// güçlü and scale of the others from the TDV İslâm Ansiklopedisi articles (İ. H. Özkan, A. Yavaşça,
// C. Tanrıkorur) and the AEU teaching pages that quote Özkan's "Türk Mûsıkîsi Nazariyatı ve
// Usûlleri" (salihbora.com "makamlarımız", eksd.org.tr, MEB ÖGM Güzel Sanatlar Lisesi books). Each
// entry's comment names its source and, where the sources disagree, which reading was chosen.

export type Seyir = 'cikici' | 'inici-cikici' | 'inici';

export type PracticeHint = { perde: string; cents: number; note: string };

export type Makam = {
  key: MakamKey;
  name: string;
  steps: readonly number[];
  durak: string;
  guclu: string;
  extra?: readonly string[];
  seyir: Seyir;
  practice?: readonly PracticeHint[];
};

export const MAKAMS: Record<MakamKey, Makam> = {
  // Source: MAKAM.md (Sonic Pi); descending with Acem.
  rast: {
    key: 'rast', name: 'Rast', steps: [9, 8, 5, 9, 9, 8, 5], durak: 'Rast', guclu: 'Nevâ', extra: ['Acem'], seyir: 'cikici',
  },
  // Source: MAKAM.md (Sonic Pi); Uşşak tetrachord + Bûselik pentachord on Nevâ.
  ussak: {
    key: 'ussak', name: 'Uşşak', steps: [8, 5, 9, 9, 4, 9, 9], durak: 'Dügâh', guclu: 'Nevâ', seyir: 'cikici',
    practice: [{ perde: 'Segâh', cents: -34, note: 'Segâh in Uşşak is commonly played about 34 cents below its AEU place (pitch tracks of 50 recordings; LISTENING.md, a hint, not a published figure).' }],
  },
  // Source: MAKAM.md (Sonic Pi); balpa/TurkishRhythm data.js (Eviç turns Acem descending).
  hicaz: {
    key: 'hicaz', name: 'Hicaz', steps: [5, 12, 5, 9, 8, 5, 9], durak: 'Dügâh', guclu: 'Nevâ', extra: ['Acem'], seyir: 'inici-cikici',
  },
  // Source: MAKAM.md (Sonic Pi); Acem descending.
  huseyni: {
    key: 'huseyni', name: 'Hüseynî', steps: [8, 5, 9, 9, 8, 5, 9], durak: 'Dügâh', guclu: 'Hüseynî', extra: ['Acem'], seyir: 'inici-cikici',
  },
  // Source: MAKAM.md (Sonic Pi); balpa/TurkishRhythm data.js (durak Rast, güçlü Nevâ, inici-çıkıcı).
  nihavend: {
    key: 'nihavend', name: 'Nihavend', steps: [9, 4, 9, 9, 4, 9, 9], durak: 'Rast', guclu: 'Nevâ', seyir: 'inici-cikici',
  },
  // Source: MAKAM.md (Sonic Pi); TDV "Kürdî" (Özkan): Kürdî tetrachord + Bûselik pentachord on Nevâ,
  // çıkıcı.
  kurdi: {
    key: 'kurdi', name: 'Kürdî', steps: [4, 9, 9, 9, 4, 9, 9], durak: 'Dügâh', guclu: 'Nevâ', seyir: 'cikici',
  },
  // Sonic Pi's steps (MAKAM.md); in practice the upper part often uses the Kürdî tetrachord.
  // Source: MAKAM.md (Sonic Pi).
  buselik: {
    key: 'buselik', name: 'Bûselik', steps: [9, 4, 9, 9, 9, 4, 9], durak: 'Dügâh', guclu: 'Hüseynî', seyir: 'cikici',
  },
  // Source: Çargâh scale on Acem Aşiran (a şed of Çargâh; atilasaraloglu.com "Perdelere göre
  // makamlar"); güçlü Çargâh, the fifth, as Çargâh makam has Gerdaniye.
  acemasiran: {
    key: 'acemasiran', name: 'Acemaşiran', steps: [9, 9, 4, 9, 9, 9, 4], durak: 'Acem Aşiran', guclu: 'Çargâh', seyir: 'inici-cikici',
  },
  // Source: TDV "Acem-Kürdî" (Tanrıkorur): güçlüler Acem and Çargâh, inici; Arel: Kürdî tetrachord +
  // Bûselik pentachord on Nevâ (as Kürdî). Chosen: Acem as güçlü.
  acemkurdi: {
    key: 'acemkurdi', name: 'Acemkürdî', steps: [4, 9, 9, 9, 4, 9, 9], durak: 'Dügâh', guclu: 'Acem', seyir: 'inici',
  },
  // Source: TDV "Bestenigâr" (Yavaşça): Sabâ scale + Segâh tetrachord on Irak, güçlü Çargâh,
  // inici-çıkıcı; the octave Irak–Eviç has eight steps.
  bestenigar: {
    key: 'bestenigar', name: 'Bestenigâr', steps: [5, 9, 8, 5, 5, 12, 5, 4], durak: 'Irak', guclu: 'Çargâh', seyir: 'inici-cikici',
    practice: [{ perde: 'Hicaz', cents: 51, note: 'In the Sabâ tetrachord Hicaz is played about 2–2.5 koma higher than written (Rauf Yekta, quoted in TDV "Sabâ", Özkan).' }],
  },
  // Source: Uşşak scale with Eviç ascending, güçlü Nevâ, inici-çıkıcı (AEU as taught; salihbora.com,
  // eksd.org.tr). The same scale as Uşşak and Nevâ: told apart by seyir only.
  beyati: {
    key: 'beyati', name: 'Beyâtî', steps: [8, 5, 9, 9, 4, 9, 9], durak: 'Dügâh', guclu: 'Nevâ', extra: ['Eviç'], seyir: 'inici-cikici',
  },
  // Source: Zirgüleli Hicaz on Rast, inici (atilasaraloglu.com; TDV "Kürdili-hicazkâr" names its güçlü
  // Gerdaniye). Some texts name Nevâ; chosen: Gerdaniye.
  hicazkar: {
    key: 'hicazkar', name: 'Hicazkâr', steps: [5, 12, 5, 9, 5, 12, 5], durak: 'Rast', guclu: 'Gerdaniye', seyir: 'inici',
  },
  // Source: TDV "Hüzzam" (Özkan): Hüzzam pentachord + Hicaz on Eviç, in practice Hümayun on Nevâ
  // (Bûselik on Gerdaniye, hence Muhayyer); chosen: the perdes of the practice octave Segâh–Tiz Segâh.
  huzzam: {
    key: 'huzzam', name: 'Hüzzam', steps: [5, 9, 5, 12, 5, 9, 8], durak: 'Segâh', guclu: 'Nevâ', seyir: 'inici-cikici',
    practice: [{ perde: 'Hisar', cents: 28, note: 'Hisar in Hüzzam is played 1–1.5 koma higher than written (TDV "Hüzzam", Özkan).' }],
  },
  // Source: Uşşak tetrachord + Hicaz pentachord on Nevâ, güçlü Nevâ (omercho/SuperCollider-old
  // Karcigar.sc: K S T S A12 S T).
  karcigar: {
    key: 'karcigar', name: 'Karcığar', steps: [8, 5, 9, 5, 12, 5, 9], durak: 'Dügâh', guclu: 'Nevâ', seyir: 'inici-cikici',
  },
  // Source: TDV "Kürdili-hicazkâr" (Özkan), AEU form: Kürdî on Rast, inici, güçlü Gerdaniye (second:
  // Çargâh); the Hicazkâr forms are not modelled.
  kurdilihicazkar: {
    key: 'kurdilihicazkar', name: 'Kürdîlihicazkâr', steps: [4, 9, 9, 9, 4, 9, 9], durak: 'Rast', guclu: 'Gerdaniye', seyir: 'inici',
  },
  // Source: Çargâh scale on Rast, inici (atilasaraloglu.com); güçlü Gerdaniye. The same scale as
  // Acemaşiran: told apart by güçlü and seyir.
  mahur: {
    key: 'mahur', name: 'Mâhur', steps: [9, 9, 4, 9, 9, 9, 4], durak: 'Rast', guclu: 'Gerdaniye', seyir: 'inici',
  },
  // Source: Hüseynî scale, inici from Muhayyer (AEU as taught). Some texts name Muhayyer as güçlü;
  // chosen: Hüseynî. The same scale as Hüseynî: told apart by seyir only.
  muhayyer: {
    key: 'muhayyer', name: 'Muhayyer', steps: [8, 5, 9, 9, 8, 5, 9], durak: 'Dügâh', guclu: 'Hüseynî', extra: ['Acem'], seyir: 'inici',
  },
  // Source: Uşşak tetrachord + Bûselik pentachord on Nevâ, descending Rast pentachord on Nevâ (Eviç)
  // (AEU as taught). The same scale as Uşşak and Beyâtî.
  neva: {
    key: 'neva', name: 'Nevâ', steps: [8, 5, 9, 9, 4, 9, 9], durak: 'Dügâh', guclu: 'Nevâ', extra: ['Eviç'], seyir: 'inici-cikici',
  },
  // Source: TDV "Sabâ" (Özkan): Sabâ tetrachord K S S (18 koma) + Zirgüleli Hicaz on Çargâh (Şehnaz,
  // not Muhayyer, above Gerdaniye); MAKAM.md's 8 5 4 (microtonOS) differs: chosen TDV.
  saba: {
    key: 'saba', name: 'Sabâ', steps: [8, 5, 5, 12, 5, 9, 9], durak: 'Dügâh', guclu: 'Çargâh', extra: ['Şehnaz'], seyir: 'cikici',
    practice: [{ perde: 'Hicaz', cents: 51, note: 'In the Sabâ tetrachord Hicaz is played about 2–2.5 koma higher than written (Rauf Yekta, quoted in TDV "Sabâ", Özkan).' }],
  },
  // Source: Segâh pentachord on Segâh, güçlü Nevâ (AEU as taught); AEU writes the upper tetrachord as
  // Hicaz on Eviç, chosen: the perdes of the usual seyir (Gerdaniye, Muhayyer, Tiz Segâh).
  segah: {
    key: 'segah', name: 'Segâh', steps: [5, 9, 9, 8, 5, 9, 8], durak: 'Segâh', guclu: 'Nevâ', seyir: 'cikici',
  },
  // Source: TDV "Sultânîyegâh" (Özkan): Bûselik pentachord on Yegâh + Kürdî and Hicaz tetrachords on
  // Dügâh, Hicaz preferred, inici from Nevâ; güçlü Dügâh (the pentachord's top).
  sultaniyegah: {
    key: 'sultaniyegah', name: 'Sultânîyegâh', steps: [9, 4, 9, 9, 5, 12, 5], durak: 'Yegâh', guclu: 'Dügâh', extra: ['Kürdî', 'Çargâh'], seyir: 'inici',
  },
  // Source: Rast pentachord + Hicaz tetrachord on Nevâ, güçlü Nevâ (atilasaraloglu.com: a simple makam
  // on Rast).
  suzinak: {
    key: 'suzinak', name: 'Sûzinâk', steps: [9, 8, 5, 9, 5, 12, 5], durak: 'Rast', guclu: 'Nevâ', seyir: 'cikici',
  },
};

/** The scale's degrees as koma above Rast, from the durak (or `durak` given) up one octave. */
export function scaleDegrees(makam: MakamKey, durak?: string | null): Array<{ koma: number; name: string | null }> {
  const m = MAKAMS[makam];
  const start = (durak ? perdeKoma(durak) : null) ?? perdeKoma(m.durak) ?? 0;
  const out = [{ koma: start, name: perdeName(start) }];
  let k = start;
  for (const s of m.steps) {
    k += s;
    out.push({ koma: k, name: perdeName(k) });
  }
  return out;
}

/** Makam names as people type them: no diacritics, any case, the usual spellings. */
const ALIASES: Record<string, MakamKey> = {
  nihavent: 'nihavend',
  nahawand: 'nihavend',
  usak: 'ussak',
  ushshak: 'ussak',
  hussaini: 'huseyni',
  huseyni: 'huseyni',
  husseyni: 'huseyni',
  bayati: 'beyati',
  kurdilihicazkar: 'kurdilihicazkar',
  kurdilihijazkar: 'kurdilihicazkar',
  hijaz: 'hicaz',
  hijazkar: 'hicazkar',
  suzinak: 'suzinak',
  suznak: 'suzinak',
  sultaniyegah: 'sultaniyegah',
  sultaniyegh: 'sultaniyegah',
  segah: 'segah',
  sikah: 'segah',
  saba: 'saba',
  mahur: 'mahur',
  acemkurdi: 'acemkurdi',
  acemasiran: 'acemasiran',
  karcigar: 'karcigar',
  karcighar: 'karcigar',
  huzam: 'huzzam',
};

/** 'Uşşak', 'USSAK', 'ussak', 'Nihavent', 'Hüseynî', 'Kürdili Hicazkâr' → the makam's key; null when unknown. */
export function parseMakamName(text: string): MakamKey | null {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en')
    .replace(/ı/g, 'i')
    .replace(/ş/g, 's')
    .replace(/ç/g, 'c')
    .replace(/ğ/g, 'g')
    .replace(/[^a-z]/g, '');
  if (!plain) return null;
  for (const m of Object.values(MAKAMS)) if (m.key === plain) return m.key;
  return ALIASES[plain] ?? null;
}
