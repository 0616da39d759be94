/**
 * Cities people and companies are in, written as the network shows a location.
 */

/** A city and the location text the network shows for it. */
export interface Place {
  readonly city: string
  readonly country: string
  readonly location: string
}

const place = (city: string, region: string, country: string): Place => ({
  city,
  country,
  location: region.length === 0 ? `${city}, ${country}` : `${city}, ${region}, ${country}`
})

/** At most 64 places: a person's place index is packed into 6 bits of a sandbox slug. */
export const places: ReadonlyArray<Place> = [
  place("New York", "New York", "United States"),
  place("San Francisco", "California", "United States"),
  place("Austin", "Texas", "United States"),
  place("Chicago", "Illinois", "United States"),
  place("Boston", "Massachusetts", "United States"),
  place("Seattle", "Washington", "United States"),
  place("Denver", "Colorado", "United States"),
  place("Atlanta", "Georgia", "United States"),
  place("Toronto", "Ontario", "Canada"),
  place("Vancouver", "British Columbia", "Canada"),
  place("Mexico City", "", "Mexico"),
  place("São Paulo", "São Paulo", "Brazil"),
  place("Buenos Aires", "", "Argentina"),
  place("Bogotá", "", "Colombia"),
  place("London", "England", "United Kingdom"),
  place("Manchester", "England", "United Kingdom"),
  place("Edinburgh", "Scotland", "United Kingdom"),
  place("Dublin", "County Dublin", "Ireland"),
  place("Berlin", "Berlin", "Germany"),
  place("Munich", "Bavaria", "Germany"),
  place("Hamburg", "Hamburg", "Germany"),
  place("Paris", "Île-de-France", "France"),
  place("Lyon", "Auvergne-Rhône-Alpes", "France"),
  place("Madrid", "Community of Madrid", "Spain"),
  place("Barcelona", "Catalonia", "Spain"),
  place("Lisbon", "Lisbon", "Portugal"),
  place("Milan", "Lombardy", "Italy"),
  place("Amsterdam", "North Holland", "Netherlands"),
  place("Rotterdam", "South Holland", "Netherlands"),
  place("Brussels", "Brussels Region", "Belgium"),
  place("Zurich", "Zurich", "Switzerland"),
  place("Vienna", "Vienna", "Austria"),
  place("Copenhagen", "Capital Region of Denmark", "Denmark"),
  place("Stockholm", "Stockholm County", "Sweden"),
  place("Oslo", "Oslo", "Norway"),
  place("Helsinki", "Uusimaa", "Finland"),
  place("Warsaw", "Mazowieckie", "Poland"),
  place("Kraków", "Małopolskie", "Poland"),
  place("Prague", "Prague", "Czechia"),
  place("Istanbul", "Istanbul", "Türkiye"),
  place("Tel Aviv", "Tel Aviv District", "Israel"),
  place("Dubai", "Dubai", "United Arab Emirates"),
  place("Riyadh", "Riyadh Region", "Saudi Arabia"),
  place("Cairo", "Cairo", "Egypt"),
  place("Lagos", "Lagos State", "Nigeria"),
  place("Nairobi", "Nairobi County", "Kenya"),
  place("Accra", "Greater Accra Region", "Ghana"),
  place("Cape Town", "Western Cape", "South Africa"),
  place("Johannesburg", "Gauteng", "South Africa"),
  place("Bengaluru", "Karnataka", "India"),
  place("Mumbai", "Maharashtra", "India"),
  place("Hyderabad", "Telangana", "India"),
  place("Pune", "Maharashtra", "India"),
  place("Singapore", "", "Singapore"),
  place("Kuala Lumpur", "Federal Territory of Kuala Lumpur", "Malaysia"),
  place("Jakarta", "Jakarta", "Indonesia"),
  place("Ho Chi Minh City", "", "Vietnam"),
  place("Shanghai", "", "China"),
  place("Hong Kong", "", "Hong Kong SAR"),
  place("Tokyo", "Tokyo", "Japan"),
  place("Seoul", "", "South Korea"),
  place("Sydney", "New South Wales", "Australia"),
  place("Melbourne", "Victoria", "Australia"),
  place("Auckland", "Auckland", "New Zealand")
]
