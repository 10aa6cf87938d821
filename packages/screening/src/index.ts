/**
 * @kasa/screening: sanctions and asset-freeze screening of names. Lists are read from their published formats (the UN
 * Security Council consolidated list XML, a documented CSV for national lists), names are normalised the Turkish way,
 * and a {@link ScreeningIndex} built from the entries scores a name against them. Pure: no I/O, no clock.
 */
export {
  ScreeningListError,
  type EntryKind,
  type EntryName,
  type ListEntry,
  type ListVersion,
  type NameQuality,
  type ParsedList,
} from './list-entry.js';
export { parseUnConsolidatedXml, UN_SOURCE } from './un-consolidated.parser.js';
export { NATIONAL_LIST_COLUMNS, parseNationalListCsv, type NationalListOptions } from './national-list-csv.parser.js';
export { HONORIFICS, normaliseName, type NormalisedName } from './normalise-name.js';
export { INITIAL_SIMILARITY, MIN_TOKEN_SIMILARITY, editDistance, jaroWinkler, skeleton, tokenSimilarity } from './token-similarity.js';
export { scoreTokens, tokenWeight, type TokenMatch } from './name-score.js';
export { DEFAULT_THRESHOLD, ScreeningIndex, type ScreenOptions, type ScreeningHit } from './screening-index.js';
