/**
 * A customer asking for a person (issue #24, on the channels): the assistant hands the room over at
 * once instead of answering. Common phrasings in English and French; a message that only mentions a
 * person ("can a person collect my order?") is a question, not a request.
 */
const ASKS_FOR_PERSON: RegExp[] = [
  /\b(talk|speak|chat|connect me|put me through|transfer me)\b.{0,20}\b(to|with)\b.{0,15}\b(a|an|the|your|some|real|live)?\s*(human|person|agent|someone|somebody|representative|operator|staff|employee|advisor|adviser)\b/i,
  /\b(i want|i need|i'd like|i would like|can i have|can i get|get me|give me)\b.{0,15}\b(a|an|the|real|live)?\s*(human|person|agent|representative|operator)\b/i,
  /^\s*(human|agent|operator|representative|a human|a person|real person|live agent|human agent)\s*(please|pls)?\s*[.!?]*\s*$/i,
  /\b(real person|live agent|human agent|human being)\b/i,
  // French
  /\b(parler|discuter|échanger|echanger)\b.{0,20}\b(à|a|avec)\b.{0,15}\b(un|une|quelqu'un|quelqu’un|le|la|vrai|vraie)?\s*(humain|personne|conseiller|conseillère|conseillere|agent|opérateur|operateur|vendeur|vendeuse)\b/i,
  /\b(je veux|je voudrais|j'aimerais|j’aimerais|passez-moi|passe-moi)\b.{0,15}\b(un|une|le|la|vrai|vraie)?\s*(humain|personne|conseiller|conseillère|agent|opérateur)\b/i,
  /\b(vraie personne|un humain|être humain|etre humain)\b/i,
];

export function asksForPerson(text: string): boolean {
  const flat = text.normalize('NFKC').replace(/\s+/g, ' ');
  return ASKS_FOR_PERSON.some((pattern) => pattern.test(flat));
}
