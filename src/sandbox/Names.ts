/**
 * Given and family names from several cultures, and the mapping back from a
 * profile slug to a name (`maria-garcia-lopez` is María García López), so that a
 * person found by search and the same person opened by address agree.
 */
import type { Rng } from "./Random.ts"

interface Culture {
  readonly weight: number
  readonly given: ReadonlyArray<string>
  readonly family: ReadonlyArray<string>
}

const cultures: ReadonlyArray<Culture> = [
  {
    weight: 18,
    given: ["James", "Emily", "Michael", "Sarah", "David", "Jessica", "Ryan", "Megan", "Chris", "Lauren", "Daniel", "Ashley", "Kevin", "Rachel", "Brian", "Hannah", "Tyler", "Olivia", "Jordan", "Natalie"],
    family: ["Smith", "Johnson", "Williams", "Brown", "Miller", "Davis", "Wilson", "Anderson", "Taylor", "Thomas", "Moore", "Martin", "Thompson", "Clark", "Walker", "Hughes", "Bennett", "Carter", "Mitchell", "Reed"]
  },
  {
    weight: 8,
    given: ["Lukas", "Anna", "Jonas", "Lena", "Felix", "Laura", "Maximilian", "Julia", "Tobias", "Katharina", "Florian", "Sophie", "Jan", "Miriam", "Moritz"],
    family: ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Schulz", "Koch", "Richter", "Wolf", "Neumann", "Krüger"]
  },
  {
    weight: 6,
    given: ["Camille", "Julien", "Léa", "Mathieu", "Chloé", "Antoine", "Manon", "Nicolas", "Élodie", "Guillaume", "Inès", "Thomas"],
    family: ["Martin", "Bernard", "Dubois", "Durand", "Lefebvre", "Moreau", "Laurent", "Girard", "Rousseau", "Fontaine", "Chevalier", "Lambert"]
  },
  {
    weight: 8,
    given: ["María", "José", "Carmen", "Javier", "Lucía", "Alejandro", "Sofía", "Diego", "Valentina", "Pablo", "Camila", "Andrés", "Isabel", "Mateo"],
    family: ["García", "Rodríguez", "Martínez", "López", "González", "Hernández", "Pérez", "Sánchez", "Ramírez", "Torres", "Flores", "Vargas", "Castillo", "Morales"]
  },
  {
    weight: 4,
    given: ["João", "Ana", "Pedro", "Beatriz", "Lucas", "Mariana", "Gabriel", "Larissa", "Rafael", "Fernanda"],
    family: ["Silva", "Santos", "Oliveira", "Souza", "Costa", "Pereira", "Almeida", "Ferreira", "Carvalho", "Ribeiro"]
  },
  {
    weight: 3,
    given: ["Giulia", "Marco", "Francesca", "Alessandro", "Chiara", "Lorenzo", "Federica", "Matteo"],
    family: ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci"]
  },
  {
    weight: 3,
    given: ["Daan", "Sanne", "Bram", "Lotte", "Pieter", "Femke", "Jeroen", "Anouk"],
    family: ["de Jong", "Jansen", "de Vries", "van den Berg", "van Dijk", "Bakker", "Visser", "Smit"]
  },
  {
    weight: 3,
    given: ["Katarzyna", "Piotr", "Agnieszka", "Tomasz", "Magdalena", "Paweł", "Marta", "Michał"],
    family: ["Nowak", "Kowalski", "Wiśniewska", "Wójcik", "Kamińska", "Lewandowski", "Zieliński", "Szymańska"]
  },
  {
    weight: 3,
    given: ["Erik", "Ingrid", "Lars", "Astrid", "Mikkel", "Freja", "Oskar", "Sofia"],
    family: ["Andersson", "Johansson", "Nielsen", "Hansen", "Lindqvist", "Berg", "Larsen", "Eriksson"]
  },
  {
    weight: 10,
    given: ["Priya", "Rahul", "Ananya", "Arjun", "Neha", "Vikram", "Divya", "Rohan", "Kavya", "Aditya", "Sneha", "Karthik"],
    family: ["Sharma", "Patel", "Gupta", "Iyer", "Reddy", "Nair", "Singh", "Mehta", "Krishnan", "Rao", "Desai", "Chatterjee"]
  },
  {
    weight: 6,
    given: ["Wei", "Li", "Jing", "Hao", "Xin", "Yu", "Mei", "Jun", "Lin", "Tao"],
    family: ["Wang", "Zhang", "Chen", "Liu", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu"]
  },
  {
    weight: 2,
    given: ["Haruto", "Yui", "Ren", "Aoi", "Sota", "Hina", "Kenji", "Sakura"],
    family: ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura"]
  },
  {
    weight: 2,
    given: ["Minjun", "Seoyeon", "Jiho", "Hayoon", "Dohyun", "Jiwoo"],
    family: ["Kim", "Lee", "Park", "Choi", "Jung", "Kang"]
  },
  {
    weight: 2,
    given: ["Linh", "Minh", "Trang", "Huy", "Thao", "Duc"],
    family: ["Nguyen", "Tran", "Le", "Pham", "Hoang", "Vu"]
  },
  {
    weight: 4,
    given: ["Omar", "Layla", "Youssef", "Fatima", "Karim", "Nour", "Tariq", "Yasmin"],
    family: ["Haddad", "Khalil", "Mansour", "Nasser", "Saleh", "Farouk", "Aziz", "Rahman"]
  },
  {
    weight: 3,
    given: ["Emre", "Elif", "Burak", "Zeynep", "Mehmet", "Selin"],
    family: ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Öztürk"]
  },
  {
    weight: 4,
    given: ["Chinedu", "Amara", "Tunde", "Ngozi", "Kwame", "Ama", "Wanjiru", "Kofi", "Adaeze", "Emeka"],
    family: ["Okafor", "Adeyemi", "Mensah", "Okonkwo", "Balogun", "Owusu", "Kamau", "Nwosu", "Boateng", "Achieng"]
  },
  {
    weight: 2,
    given: ["Noa", "Yael", "Itai", "Tamar", "Eitan", "Shira"],
    family: ["Cohen", "Levi", "Mizrahi", "Peretz", "Biton", "Friedman"]
  },
  {
    weight: 3,
    given: ["Siobhán", "Conor", "Aoife", "Ciarán", "Niamh", "Seán"],
    family: ["Murphy", "Kelly", "O'Sullivan", "Walsh", "O'Brien", "Byrne"]
  }
]

/** A person's name. */
export interface Name {
  readonly firstName: string
  readonly lastName: string
}

/** A name from one culture, cultures weighted roughly as on a global professional network. */
export const randomName = (random: Rng): Name => {
  const culture = random.weighted(cultures.map((c) => [c, c.weight] as const))
  return { firstName: random.pick(culture.given), lastName: random.pick(culture.family) }
}

/** A name folded to a slug: no accents, lower case, hyphens between words (`O'Brien` -> `obrien`). */
export const slugify = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ı/g, "i")
    .replace(/ł/g, "l")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")

const indexBy = (names: ReadonlyArray<string>): ReadonlyMap<string, string> =>
  new Map(names.map((name) => [slugify(name), name]))

const givenBySlug = indexBy(cultures.flatMap((c) => c.given))
const familyBySlug = indexBy(cultures.flatMap((c) => c.family))

const titleCase = (word: string): string => word.length === 0 ? word : word[0].toUpperCase() + word.slice(1)

/**
 * The name a slug spells, or null when it spells none. The trailing hex or
 * number suffix the network adds to common names is ignored; words found in
 * the name lists get their accents back.
 */
export const nameOfSlug = (slug: string): Name | null => {
  const words = slug.split("-").filter((w) => w.length > 0)
  while (words.length > 0 && /\d/.test(words[words.length - 1])) words.pop()
  if (words.length < 2 || words.some((w) => !/^\p{L}{2,}$/u.test(w)) || words.length > 4) return null
  const [first, ...rest] = words
  const family = familyBySlug.get(rest.join("-")) ?? rest.map((w) => familyBySlug.get(w) ?? titleCase(w)).join(" ")
  return { firstName: givenBySlug.get(first) ?? titleCase(first), lastName: family }
}

/** The listed given name a slug word spells (`jose` -> `José`), if any. */
export const givenNameOf = (word: string): string | undefined => givenBySlug.get(slugify(word))

/** The listed family name a slug word spells (`garcia` -> `García`), if any. */
export const familyNameOf = (word: string): string | undefined => familyBySlug.get(slugify(word))
