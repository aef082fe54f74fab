/**
 * English stop words dropped by the semantic tokeniser. Only words of three or more letters are listed:
 * shorter tokens are dropped anyway. Exported so tests and the WebAssembly build use the same list.
 */
export const STOP_WORDS: readonly string[] = Object.freeze([
  'the', 'and', 'for', 'are', 'but', 'not', 'you', 'all', 'any', 'can', 'had', 'her', 'was', 'one', 'our',
  'out', 'has', 'him', 'his', 'how', 'its', 'may', 'new', 'now', 'old', 'see', 'two', 'who', 'did', 'get',
  'let', 'she', 'too', 'use', 'yet', 'via', 'per', 'off', 'own', 'why', 'also', 'been', 'from', 'have',
  'into', 'just', 'like', 'more', 'most', 'much', 'must', 'only', 'over', 'same', 'some', 'such', 'than',
  'that', 'them', 'then', 'there', 'these', 'they', 'this', 'those', 'very', 'what', 'when', 'where',
  'which', 'while', 'will', 'with', 'would', 'your', 'about', 'after', 'again', 'being', 'below', 'could',
  'does', 'doing', 'each', 'few', 'further', 'here', 'their', 'theirs', 'ours', 'should', 'until', 'were',
  'whom', 'because', 'before', 'between', 'both', 'during', 'other', 'under', 'above', 'against', 'once',
  'through', 'having', 'itself', 'myself', 'yours', 'herself', 'himself', 'themselves', 'ourselves',
]);
