/**
 * Turns a reply into the set of features the logistic regression weighs:
 * normalised words, adjacent-word bigrams, and a few placeholder tokens
 * (times, dates, links, emojis, length) so that unseen specifics such as
 * "4:30" or "calendly.com/ana" still look like what they are.
 */

import { unslang } from "./Slang.ts"

const monthNames =
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
const weekdayNames =
  "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"

// Order matters: longer shapes (links, emails, clock times) are replaced
// before their parts would be split into plain words and numbers.
const placeholders: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, " xemail "],
  [/\b(?:https?:\/\/)?(?:www\.)?(calendly|cal|hubspot|zcal|savvycal)\.(?:com|co)\/\S*/g, " xcalendarlink "],
  [/\bhttps?:\/\/\S+|\b[\w-]+\.(?:com|io|co|de|nl|no|org|net)\/\S*/g, " xurl "],
  [/\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b/g, " xtime "],
  [/\b\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?\b\.?/g, " xdate "],
  [/\b\d{1,2}(?:st|nd|rd|th)\b/g, " xordinal "],
  [/\bq[1-4]\b|\bh[12]\b/g, " xquarter "],
  [/\$\s?\d[\d,.]*k?|\b\d[\d,.]*\s?(?:k|€|eur|usd|gbp)\b/g, " xmoney "],
  [/\b\d+\b/g, " xnum "]
]

const monthPattern = new RegExp(`^(?:${monthNames})$`)
const weekdayPattern = new RegExp(`^(?:${weekdayNames})$`)
const emojiPattern = /\p{Extended_Pictographic}/gu

/** A reply lower-cased, apostrophes dropped ("don't" -> "dont") and informal spellings in their usual form. */
const flatten = (text: string): string => unslang(text.toLowerCase().replace(/[\u2018\u2019\u02bc`']/g, ""))

/** Lower-cased words of a reply with placeholders substituted (see `flatten`). */
export const words = (text: string): ReadonlyArray<string> => {
  let normalised = flatten(text).replace(emojiPattern, " xemoji ")
  for (const [pattern, token] of placeholders) normalised = normalised.replace(pattern, token)
  const result: Array<string> = []
  for (const raw of normalised.split(/[^\p{L}\p{N}?!]+|(?=[?!])|(?<=[?!])/u)) {
    if (raw.length === 0) continue
    result.push(raw)
  }
  return result
}

// Concept groups: any phrase of a group adds one shared token, so that the
// handful of training examples per class generalise to synonyms. Matched on
// the lower-cased text with apostrophes removed ("dont", "youd").
const concepts: ReadonlyArray<readonly [string, RegExp]> = [
  ["xc:later", /\b(?:later|not (?:right )?now|at the moment|for now|this (?:quarter|year|month)|next (?:week|month|quarter|year|cycle|spring|summer|autumn|fall|winter)|in (?:a few|a couple of|\d+|six|two|three) (?:weeks|months)|revisit|reconnect|check back|circle back|touch base|down the line|on hold|park (?:this|it)|paused|freeze|frozen|timing|busy|swamped|hectic|bandwidth|heads down|not ready|too early|ask me again|try (?:me )?again|reach (?:back )?out (?:again|in|when)|follow up (?:in|after)|after (?:the|our|summer|that)|until (?:the end|after|next|january|q\d)|plus tard|pas (?:maintenant|pour le moment|le bon moment)|prochain trimestre|lannée prochaine|recontact\w*|relance\w*|später|nicht jetzt|im moment|gerade (?:nicht|schlecht)|nächstes jahr|meld dich|melden sie sich|más adelante|ahora (?:no|mismo no)|el año que viene|el próximo|después del|quizás)\b/],
  ["xc:close", /\b(?:not interested|no thank|no thanks|(?:ill|hard|well|going to) pass|pass on|remove me|take me off|unsubscribe|stop (?:messaging|spamming|contacting|sending)|(?:dont|do not) (?:contact|message|follow up|add me)|decline|not for (?:me|us)|no need|not (?:a fit|relevant)|all set|were good|not looking|not open to|wont be pursuing|not going to|say no|said no|refrain|not something|no plans|not (?:the )?target|nope|nah|non merci|pas intéress\w*|intéresse pas|kein (?:interesse|bedarf)|nein danke|brauchen wir nicht|no (?:nos |me )?interesa|no gracias|(?:its|thats) a (?:no|hard no|pass))\b/],
  ["xc:concern", /\b(?:expensive|steep|too (?:much|low|high|many)|afford|roi|justify|dealbreaker|deal breaker|non-starter|no-go|concern|worr(?:y|ied)|skeptic|sceptic|wary|not convinced|not sure|proof|guarantee|differen|compet|already (?:use|have|using|gives)|happy with|switch|in-house|security|gdpr|soc ?2|hipaa|compliance|legal|sso|terms|locked|exit fee|onsite|relocat|commute|below|overpromise|bad experience|mixed reviews|problem|doesnt work|wont adopt|never approve|cant|moat|just (?:a|using)|cher|rgpd|déjà|teuer|datenschutz|schon (?:ein|eine)|bereits|caro|protección de datos|ya (?:tenemos|usamos)|rabatt|descuento|bann?(?:ed|s)?|blocked|flagged|nuts|insane|ridiculous|overpriced)/],
  ["xc:info", /\b(?:tell me more|more (?:info|information|details)|send (?:me |over )?(?:some |the |a |what)|share (?:a |the |some |it|more)|curious|intrigued|interested in|interesting|sounds (?:great|good|cool|interesting)|open to|keen|love to (?:see|hear|learn)|(?:know|learn|hear) more|how (?:does|do|long|is)|what does|whats|is there|do you (?:have|integrate|cover|offer)|next steps|free trial|demo video|pilot|pricing|case stud|deck|one-pager|plus dinfos|envoyez|présentation|la doc|mehr (?:infos|informationen)|schick|interessant|testversion|was kostet|me interesa|más info|cuéntame|cuánto cuesta|precios|combien)\b/],
  ["xc:schedule", /\b(?:call|meet|meeting|chat|calendar|invite|slot|availability|available|works for me|book|booked|zoom|zoom or teams|ms teams|teams link|google meet|ring me|coffee|reschedule|move it|demo|free (?:on|all|at|this)|talk then|see you|appel|appeler|rdv|rendez-vous|dispo|telefonieren|termin|treffen|uhr|llamada|hablamos|hablar|reunión)\b/],
  ["xc:redirect", /\b(?:colleague|right person|wrong person|best person|better (?:person|contact|placed)|not (?:me|my area|the right (?:person|contact|team))|decision maker|handles|handled by|in charge|responsible for|owns|took over|taking over|loop in|cc|ccd|forward|passed your note|shared this with|talk to|speak (?:with|to)|reach out to|contact|get in touch|you (?:want|want to|need)|youll want|youd want|your guy|intro|connect(?:ing)? (?:you )?with|direct this|go straight to|ping (?:her|him)|managed by|runs our|head of|(?:team|sales|product|marketing|tech|project|growth) lead\b|\bleads (?:our|the)\b|manager|director|collègue|contacte\w*|voyez avec|demande à|kollege|kollegin|zuständig|wende dich|frag|abteilung|compañer\w*|háblale|habla con|se encarga|lleva estos|equipo de|(?:in|from) (?:sales|ops|operations|marketing|procurement|purchasing|finance|hr|it|partnerships|legal))/],
  ["xc:away", /\b(?:out of (?:the )?office|ooo|away|on (?:annual |parental |maternity |paternity |medical )?leave|vacation|holiday|sabbatical|back on|back in the office|will return|returning|return on|upon my return|when im back|limited access|no access|not monitored|automatic|automated response|auto[- ]?reply|autoresponder|off until|offline|absent|congé|vacances|urlaub|abwesend|nicht im büro|abwesenheit\w*|fuera de la oficina|vacaciones|de baja|on a plane|travell?ing|slow replies|no signal|no laptop|offsite)\b/],
  ["xc:social", /\b(?:thanks for (?:connecting|the connection)|new year|merry|congrats|congratulations|who is this|do we know|lol|haha|network|bot|real person|wrong \w+ \w+|did we meet|we met|just (?:seeing|saw) this|merci pour|enchanté|danke für|gracias por|salut|servus|hola|bonjour|hallo|moin|buenas)\b/]
]

// Names in the middle of a sentence (not after a full stop) point at a
// person being mentioned, which referrals do and most other replies do not.
const nameStopwords = new Set([
  "I", "Im", "Ive", "Id", "Ill", "Hi", "Hey", "Hello", "Thanks", "Thank", "Dear", "Monday", "Tuesday", "Wednesday",
  "Thursday", "Friday", "Saturday", "Sunday", "January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December", "LinkedIn", "CET", "EST", "PST", "GMT", "UK", "US", "EU", "OOO", "Q1",
  "Q2", "Q3", "Q4"
])
const midSentenceName = /(?<![.!?]\s*|^\s*)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\b/gu

const hasMidSentenceName = (text: string): boolean => {
  for (const match of text.replace(/[\u2018\u2019']/g, "").matchAll(midSentenceName)) {
    const first = match[0].split(/\s+/)[0]
    if (!nameStopwords.has(first)) return true
  }
  return false
}

const contrast = /\b(?:but|though|tho|however|although|mais|aber|pero|sino)\b/

// A negation colours the words right after it: "not interested" and
// "nicht interessant" share `neg:` features that "interested" alone lacks.
const negators = new Set(["not", "no", "dont", "never", "cant", "wont", "isnt", "arent", "doesnt", "nicht", "kein", "keine", "pas", "ne", "jamais", "nunca", "tampoco"])
const negationScope = 2

/**
 * Character 3- and 4-grams of a word, marked at its edges (`<intr`, `ing>`),
 * so a misspelt or inflected word ("intresting", "interessant") still shares
 * most of its features with the word it resembles.
 */
const characterGrams = (word: string): ReadonlyArray<string> => {
  const marked = `<${word}>`
  const result: Array<string> = []
  for (const n of [3, 4]) for (let i = 0; i + n <= marked.length; i++) result.push(`#${marked.slice(i, i + n)}`)
  return result
}

const lengthBucket = (count: number): string =>
  count <= 2 ? "xlen:tiny" : count <= 6 ? "xlen:short" : count <= 20 ? "xlen:medium" : "xlen:long"

/**
 * The distinct features of a reply: each word, each bigram of adjacent
 * words (`a_b`), a length bucket, concept tokens, and whether a name is
 * mentioned mid-sentence. Presence, not counts: in one-line
 * replies a repeated word says little more than the word once.
 */
export const features = (text: string): ReadonlySet<string> => {
  const tokens = words(text)
  const result = new Set<string>()
  result.add(lengthBucket(tokens.length))
  const flat = flatten(text)
  for (const [token, pattern] of concepts) if (pattern.test(flat)) result.add(token)
  // In "X but Y" the part after the turn usually decides ("looks cool but we use HubSpot").
  const turn = contrast.exec(flat)
  if (turn !== null) {
    const after = flat.slice(turn.index + turn[0].length)
    for (const [token, pattern] of concepts) if (pattern.test(after)) result.add(`${token}:after-but`)
  }
  if (hasMidSentenceName(text)) result.add("xc:name")
  let negated = 0
  for (let i = 0; i < tokens.length; i++) {
    result.add(tokens[i])
    if (negated > 0) result.add(`neg:${tokens[i]}`)
    negated = negators.has(tokens[i]) ? negationScope : Math.max(0, negated - 1)
    if (!tokens[i].startsWith("x")) for (const gram of characterGrams(tokens[i])) result.add(gram)
    if (monthPattern.test(tokens[i])) result.add("xmonth")
    else if (weekdayPattern.test(tokens[i])) result.add("xweekday")
    if (i + 1 < tokens.length) result.add(`${tokens[i]}_${tokens[i + 1]}`)
  }
  return result
}
