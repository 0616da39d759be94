/**
 * Job titles (with their function and seniority), the skills of each function,
 * and the network's industry names.
 */

/** A broad job function. */
export type JobFunction =
  | "engineering"
  | "data"
  | "product"
  | "design"
  | "sales"
  | "marketing"
  | "customer"
  | "people"
  | "finance"
  | "operations"
  | "executive"

/** 1 individual contributor, 2 senior, 3 manager or lead, 4 director, 5 vice president or head, 6 founder or C-level. */
export type Seniority = 1 | 2 | 3 | 4 | 5 | 6

/** A job title. */
export interface Role {
  readonly title: string
  readonly function: JobFunction
  readonly seniority: Seniority
}

const role = (title: string, fn: JobFunction, seniority: Seniority): Role => ({ title, function: fn, seniority })

/** At most 64 titles: a person's title index is packed into 6 bits of a sandbox slug. */
export const roles: ReadonlyArray<Role> = [
  role("Software Engineer", "engineering", 1),
  role("Senior Software Engineer", "engineering", 2),
  role("Staff Engineer", "engineering", 3),
  role("Engineering Manager", "engineering", 3),
  role("Director of Engineering", "engineering", 4),
  role("VP of Engineering", "engineering", 5),
  role("Chief Technology Officer", "executive", 6),
  role("DevOps Engineer", "engineering", 2),
  role("Security Engineer", "engineering", 2),
  role("Head of Information Security", "engineering", 5),
  role("Data Analyst", "data", 1),
  role("Data Scientist", "data", 2),
  role("Machine Learning Engineer", "data", 2),
  role("Head of Data", "data", 5),
  role("Analytics Manager", "data", 3),
  role("Product Manager", "product", 2),
  role("Senior Product Manager", "product", 3),
  role("Director of Product", "product", 4),
  role("Chief Product Officer", "executive", 6),
  role("Product Designer", "design", 2),
  role("UX Researcher", "design", 2),
  role("Head of Design", "design", 5),
  role("Sales Development Representative", "sales", 1),
  role("Account Executive", "sales", 2),
  role("Enterprise Account Executive", "sales", 2),
  role("Sales Manager", "sales", 3),
  role("Regional Sales Director", "sales", 4),
  role("VP of Sales", "sales", 5),
  role("Chief Revenue Officer", "executive", 6),
  role("Business Development Manager", "sales", 3),
  role("Partnerships Manager", "sales", 3),
  role("Marketing Manager", "marketing", 3),
  role("Content Marketing Manager", "marketing", 3),
  role("Demand Generation Manager", "marketing", 3),
  role("Growth Marketing Lead", "marketing", 3),
  role("Product Marketing Manager", "marketing", 3),
  role("Head of Marketing", "marketing", 5),
  role("Chief Marketing Officer", "executive", 6),
  role("Customer Success Manager", "customer", 2),
  role("Head of Customer Success", "customer", 5),
  role("Solutions Engineer", "customer", 2),
  role("Technical Account Manager", "customer", 2),
  role("Talent Acquisition Partner", "people", 2),
  role("Technical Recruiter", "people", 2),
  role("HR Business Partner", "people", 3),
  role("Head of People", "people", 5),
  role("Chief People Officer", "executive", 6),
  role("Financial Analyst", "finance", 1),
  role("Finance Manager", "finance", 3),
  role("Controller", "finance", 4),
  role("Chief Financial Officer", "executive", 6),
  role("Operations Manager", "operations", 3),
  role("Supply Chain Manager", "operations", 3),
  role("Procurement Lead", "operations", 3),
  role("Head of Operations", "operations", 5),
  role("Chief Operating Officer", "executive", 6),
  role("Project Manager", "operations", 2),
  role("Management Consultant", "operations", 2),
  role("Founder & CEO", "executive", 6),
  role("Co-Founder", "executive", 6),
  role("Managing Director", "executive", 6),
  role("General Counsel", "executive", 5),
  role("Office Manager", "operations", 1),
  role("Business Analyst", "data", 1)
]

/** The skills people of a function list on their profile. */
export const skillsByFunction: Readonly<Record<JobFunction, ReadonlyArray<string>>> = {
  engineering: ["TypeScript", "Kubernetes", "System Design", "AWS", "Go", "PostgreSQL", "Distributed Systems", "CI/CD", "React", "Python", "Terraform", "Microservices"],
  data: ["SQL", "Python", "Machine Learning", "dbt", "Data Visualization", "Statistics", "Tableau", "Spark", "A/B Testing", "Forecasting"],
  product: ["Product Strategy", "Roadmapping", "User Research", "Agile", "Product Discovery", "Stakeholder Management", "OKRs", "Pricing"],
  design: ["Figma", "Design Systems", "User Experience (UX)", "Prototyping", "Usability Testing", "Interaction Design", "Accessibility"],
  sales: ["B2B Sales", "Salesforce", "Negotiation", "Pipeline Management", "Solution Selling", "MEDDIC", "Cold Calling", "Account Management", "SaaS", "Forecasting"],
  marketing: ["Demand Generation", "Content Strategy", "SEO", "HubSpot", "Marketing Automation", "Brand Strategy", "Copywriting", "Paid Social", "Go-to-Market Strategy"],
  customer: ["Customer Success", "Onboarding", "Customer Retention", "Gainsight", "Technical Sales", "Solution Architecture", "Account Management"],
  people: ["Talent Acquisition", "Employer Branding", "Recruiting", "Employee Relations", "Compensation & Benefits", "Sourcing", "Onboarding"],
  finance: ["Financial Modeling", "FP&A", "Budgeting", "IFRS", "Excel", "Cash Flow", "Audit", "Fundraising"],
  operations: ["Process Improvement", "Lean Six Sigma", "Supply Chain Management", "Vendor Management", "Project Management", "Logistics", "Change Management"],
  executive: ["Leadership", "Strategy", "Fundraising", "Team Building", "P&L Management", "Board Relations", "Go-to-Market Strategy", "M&A"]
}

/** Industry names as the network shows them. */
export const industries: ReadonlyArray<string> = [
  "Software Development",
  "IT Services and IT Consulting",
  "Financial Services",
  "Banking",
  "Insurance",
  "Hospitals and Health Care",
  "Biotechnology Research",
  "Staffing and Recruiting",
  "Advertising Services",
  "Business Consulting and Services",
  "Industrial Machinery Manufacturing",
  "Retail",
  "Transportation, Logistics, Supply Chain and Storage",
  "Telecommunications",
  "Higher Education",
  "E-Learning Providers",
  "Real Estate",
  "Renewable Energy Power Generation",
  "Computer and Network Security",
  "Food and Beverage Services",
  "Motor Vehicle Manufacturing",
  "Venture Capital and Private Equity Principals"
]
