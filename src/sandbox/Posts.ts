/**
 * Posts: a person's or a company's posts (`get_posts`) and one post
 * (`get_post`). A post's text and engagement follow from its id alone, its
 * publication instant is inside the id, and reactions grow during the first
 * days after publication.
 */
import { Result } from "effect"
import type { Company, Post, PostAuthor, PostPage } from "../domain/NetworkModels.ts"
import type { PostAddress, ProfileRef } from "./Addresses.ts"
import { profileOfProviderId } from "./Addresses.ts"
import { hash32, rng } from "./Random.ts"
import { postIdOf, providerIdOfSlug, publishedAtOfPostId } from "./Ids.ts"
import { slugify } from "./Names.ts"
import { type InvalidPageRequest, type PageRequest, pageOf, pageWindow } from "./Paging.ts"
import { memberFrom, personTraits } from "./SandboxPeople.ts"
import { HOUR, iso, recentPostInstants } from "./Timeline.ts"

interface Topic {
  readonly hashtags: ReadonlyArray<string>
  readonly texts: ReadonlyArray<string>
}

const topics: ReadonlyArray<Topic> = [
  {
    hashtags: ["sales", "b2b", "prospecting"],
    texts: [
      "Cold outreach isn't dead. Lazy outreach is. Three things that doubled our reply rate this quarter:\n\n1. One idea per message\n2. A reason why now\n3. No calendar link in the first message",
      "Pipeline reviews are not status meetings. The three questions we now ask on every deal: what changed since last week, who else is involved, and what happens if they do nothing?"
    ]
  },
  {
    hashtags: ["hiring", "careers"],
    texts: [
      "We're hiring! Our team is growing and we're looking for people who like hard problems and kind colleagues. Link in the comments — and tag someone who'd be a great fit.",
      "After 40 interviews this month, one thing stands out: the best candidates ask about the problem, not the perks."
    ]
  },
  {
    hashtags: ["leadership", "management"],
    texts: [
      "The most underrated management skill: writing things down. Decisions, context, the why. Your future team will thank you.",
      "I used to think my job as a manager was to have answers. Turns out it's to ask better questions and then get out of the way."
    ]
  },
  {
    hashtags: ["ai", "productivity"],
    texts: [
      "Everyone is talking about AI agents. Here's what actually worked for us after six months: small, boring automations with a human approving the last step.",
      "Hot take: most teams don't need a new AI tool. They need to fix the process the tool would automate."
    ]
  },
  {
    hashtags: ["customersuccess", "saas"],
    texts: [
      "Churn rarely happens at renewal. It happens in the first 90 days, when onboarding quietly fails. What's your earliest warning sign?",
      "A customer told me today: 'You're the only vendor who calls when nothing is wrong.' That's the whole strategy."
    ]
  },
  {
    hashtags: ["marketing", "content"],
    texts: [
      "We stopped gating our content and inbound went up 40%. Trust compounds faster than leads.",
      "Your ideal customer profile is a hypothesis, not a fact. Revisit it every quarter."
    ]
  },
  {
    hashtags: ["milestone", "team"],
    texts: [
      "Five years ago we were three people in a borrowed office. Today we're celebrating our 200th customer. Thank you to everyone who believed early.",
      "Proud of this team. We shipped the biggest release of the year this week — without a single late night."
    ]
  },
  {
    hashtags: ["events", "networking"],
    texts: [
      "Back from three days at the conference. Best session: a 20-minute talk on pricing that beat every keynote. Who else was there?",
      "Speaking next month about what we learned scaling into new markets. If you'll be there, let's grab a coffee."
    ]
  }
]

const ENGAGEMENT_RAMP = 18 * HOUR

const postCode = (id: string): string => (hash32("post-code", id) & 0xffffff).toString(36).padStart(4, "0").slice(-4)

const engagement = (id: string, now: number) => {
  const random = rng("post-engagement", id)
  const reactions = Math.floor(Math.exp(random.float(1, 6.5)))
  const comments = Math.floor(reactions * random.float(0.03, 0.2))
  const reposts = Math.floor(reactions * random.float(0, 0.06))
  const age = Math.max(0, now - publishedAtOfPostId(id))
  const grown = 1 - Math.exp(-age / ENGAGEMENT_RAMP)
  return {
    reactions: Math.floor(reactions * grown),
    comments: Math.floor(comments * grown),
    reposts: Math.floor(reposts * grown)
  }
}

const contentOf = (id: string) => {
  const random = rng("post-content", id)
  const topic = random.pick(topics)
  return {
    text: random.pick(topic.texts),
    hashtags: random.sample(topic.hashtags, random.int(0, topic.hashtags.length))
  }
}

const postOf = (id: string, author: PostAuthor, authorSlug: string | null, now: number): Post => {
  const content = contentOf(id)
  const words = slugify(content.text.split(/\s+/).slice(0, 6).join(" "))
  return {
    id,
    urn: `urn:li:activity:${id}`,
    url: authorSlug === null
      ? `https://www.linkedin.com/feed/update/urn:li:activity:${id}/`
      : `https://www.linkedin.com/posts/${encodeURIComponent(authorSlug)}_${words}-activity-${id}-${postCode(id)}`,
    author,
    text: content.text + (content.hashtags.length === 0 ? "" : "\n\n" + content.hashtags.map((h) => `#${h}`).join(" ")),
    publishedAt: iso(publishedAtOfPostId(id)),
    ...engagement(id, now),
    hashtags: content.hashtags
  }
}

const personAuthor = (ref: ProfileRef): PostAuthor => {
  const traits = personTraits(ref)
  return {
    kind: "person",
    id: ref.providerId,
    name: `${traits.name.firstName} ${traits.name.lastName}`,
    headline: traits.headline,
    profileUrl: ref.profileUrl
  }
}

const companyAuthor = (company: Company): PostAuthor => ({
  kind: "company",
  id: company.id,
  name: company.name,
  headline: company.tagline,
  profileUrl: company.profileUrl
})

const idFor = (authorKey: string, instant: number) => postIdOf(instant, hash32("post-discriminator", authorKey, instant))

/**
 * A person's posts of the last two years before `now`, newest first, paged.
 * Their number follows the person's posts per month.
 */
export const postsOfPerson = (
  ref: ProfileRef,
  now: number,
  page: PageRequest
): Result.Result<PostPage, InvalidPageRequest> =>
  Result.map(pageWindow(page), (window) => {
    const instants = recentPostInstants(ref.providerId, personTraits(ref).postsPerMonth, now)
    const author = personAuthor(ref)
    // A person known only by provider id has no slug to put in a /posts/ address.
    const slug = ref.publicIdentifier === ref.providerId ? null : ref.publicIdentifier
    return pageOf(
      window,
      instants.length,
      instants.length,
      (i) => postOf(idFor(ref.providerId, instants[i]), author, slug, now)
    )
  })

/** How often a company posts (per month): pages of bigger companies post more. */
export const companyPostsPerMonth = (company: Company): number =>
  Math.round(rng("company-posting", company.id).float(1, 4) * (company.followers > 20_000 ? 3 : 1) * 10) / 10

/** A company page's posts of the last two years before `now`, newest first, paged. */
export const postsOfCompany = (
  company: Company,
  now: number,
  page: PageRequest
): Result.Result<PostPage, InvalidPageRequest> =>
  Result.map(pageWindow(page), (window) => {
    const key = `company:${company.id}`
    const instants = recentPostInstants(key, companyPostsPerMonth(company), now)
    const author = companyAuthor(company)
    return pageOf(window, instants.length, instants.length, (i) => postOf(idFor(key, instants[i]), author, null, now))
  })

/**
 * The post at an address, with its engagement at `now`. The `/posts/`
 * address names the author; a bare id or urn does not (the network's ids
 * carry no author), and the sandbox then makes one up from the id. Use the
 * `url` of a post from `get_posts` to find it again with its author.
 */
export const postAt = (address: PostAddress, now: number): Post => {
  const ref = address.authorSlug === null
    ? memberFrom(rng("post-author", address.id))
    : profileOfProviderId(providerIdOfSlug(address.authorSlug))
  return postOf(address.id, personAuthor(ref), ref.publicIdentifier === ref.providerId ? null : ref.publicIdentifier, now)
}
