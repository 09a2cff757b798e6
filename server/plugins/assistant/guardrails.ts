/**
 * Messages that try to change the assistant's instructions or get its prompt out (prompt injection).
 * They get no answer from the knowledge and no model call: the assistant hands over. The patterns
 * are the common phrasings in English and French; a model call is also checked afterwards (its
 * answer must cite a passage and may not repeat the instructions), so a phrasing missed here still
 * cannot make the assistant say anything but the company's knowledge.
 */
const INJECTION_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(previous|prior|above|earlier|all|your|system)\b.{0,30}\b(instructions?|prompts?|rules|directions|guidelines)\b/i,
  /\b(reveal|show|print|repeat|display|output|leak|share|give|tell|write|list|what(?:'s| is| are| were))\b.{0,40}\b(your|system|initial|hidden|original|secret)\b.{0,20}\b(prompt|instructions?|guidelines|configuration)\b/i,
  /\bsystem\s*prompt\b/i,
  /\b(you are now|from now on you are|act as|pretend (to be|you are)|roleplay as|jailbreak|developer mode|dan mode|do anything now)\b/i,
  /\b(new|updated|different) instructions?\s*:/i,
  /<\s*\/?\s*(system|instructions?)\s*>|\[\s*(system|inst)\s*\]|<<<|>>>/i,
  // Instructions overriding what the assistant says: a fixed reply to every question, "from now on…", "reply only with…",
  // "ignore the passages". A customer asking how the shop answers ("Do you answer every message by e-mail?") is not one.
  /(?<!\b(do|does|did|will|would|can|could)\s+(you|they|it|someone|anyone|your \w+)\s+)\b(answer|reply|respond)\b\s+(to\s+)?(every|each|all|any)\b.{0,30}\b(questions?|messages?|requests?|prompts?)\b\s*(with|by saying|saying|as)\b/i,
  /(?<!\b(do|does|did|will|would|can|could)\s+(you|they|it|someone|anyone|your \w+)\s+)\b(answer|reply|respond|say)\s+(only|always|just)\s+(with|by saying|saying)\b/i,
  /\b(always|only)\s+(answer|reply|respond)\s+(with|by saying|saying)\s*["'“‘«]/i,
  /\b(from now on|henceforth|for the rest of (this|the) (conversation|chat)|no matter what (i|we|they|anyone) (ask|say|write)s?|whatever (i|we|they|anyone) (ask|say|write)s?)\b.{0,60}\b(answer|reply|respond|say|tell|write|only|always)\b/i,
  /\b(ignore|disregard|forget)\b.{0,15}\b(the|your|these|those|all|any)\s+(passages?|knowledge( base)?|context|sources?|documents?|articles?)\b/i,
  // Getting the instructions out another way: the text above repeated or translated, a message posing as the system.
  /\b(repeat|print|output|translate|summari[sz]e|copy)\b.{0,30}\b(text|everything|words|messages?)\s+(above|before this)\b/i,
  /\b(translate|summari[sz]e|paraphrase|encode)\b.{0,20}\b(your|the|these)\s+(instructions?|prompt|rules|guidelines)\b/i,
  /^\s*(system|assistant|developer|admin)\s*:/i,
  // French
  /(?<!-)\b(réponds|répondez|reponds|repondez)\b(?!\s*-)\s+(à|a)\s+(toutes?|chaque)\b.{0,30}\b(questions?|messages?|demandes?)\b\s*(par|avec|en disant)\b/i,
  /(?<!-)\b(réponds|répondez|reponds|repondez|dis|dites)\b(?!\s*-)\s+(uniquement|seulement|toujours)\s+(par|avec|que)\b/i,
  /\b(partir de maintenant|désormais|dorénavant|quoi que (je|l'on|on) (demande|dise|écrive))\b.{0,60}(?<![a-zà-ÿ])(réponds|répondez|reponds|repondez|dis|dites|écris|écrivez|ecris)(?![a-zà-ÿ])/i,
  /\b(ignore[rz]?|oublie[rz]?)\b.{0,15}\b(les|la|le|tes|vos|ta|votre)\s+(passages?|base de connaissances?|contexte|sources?|documents?|articles?)\b/i,
  /\b(ignore[rz]?|oublie[rz]?|ne tiens pas compte)\b.{0,40}\b(instructions?|consignes?|règles|prompt)\b/i,
  /\b(révèle|revele|montre|affiche|donne|répète|repete|écris|ecris|dis)[- ]?(moi|nous)?\b.{0,40}\b(ton|tes|votre|vos)\b.{0,20}\b(prompt|instructions?|consignes?|règles)\b/i,
  /\b(tu es maintenant|fais semblant d'être|joue le rôle)\b/i,
];

export function looksLikeInjection(text: string): boolean {
  const flat = text.normalize('NFKC').replace(/\s+/g, ' ');
  return INJECTION_PATTERNS.some((pattern) => pattern.test(flat));
}
