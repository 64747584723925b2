// Merchant pools of the demo feed: who the company pays and who pays it. Amounts are in dollars
// (log-uniform between min and max); `cat` is a category template key (seed/chart.ts); `depts` are
// department template keys, used when the company's tree has them.

export interface PoolEntry {
  merchant: string;
  cat: string;
  min: number;
  max: number;
  weight: number;
  depts?: string[];
  /** Description; {ref} becomes a reference number. */
  desc?: string;
}

export const CARD_EXPENSES: PoolEntry[] = [
  { merchant: 'AWS', cat: 'cloud_hosting', min: 300, max: 12000, weight: 6, depts: ['infrastructure', 'platform'], desc: 'AWS EMEA aws.amazon.com' },
  { merchant: 'Google Cloud', cat: 'cloud_hosting', min: 100, max: 6000, weight: 2, depts: ['data_science', 'infrastructure'], desc: 'GOOGLE *CLOUD {ref}' },
  { merchant: 'Snowflake', cat: 'data_apis', min: 400, max: 9000, weight: 2, depts: ['data_science'] },
  { merchant: 'Datadog', cat: 'cloud_hosting', min: 200, max: 5000, weight: 2, depts: ['infrastructure'] },
  { merchant: 'Twilio', cat: 'data_apis', min: 50, max: 2500, weight: 2, depts: ['platform'] },
  { merchant: 'OpenAI', cat: 'data_apis', min: 20, max: 2500, weight: 2, depts: ['data_science'] },
  { merchant: 'Slack', cat: 'software', min: 80, max: 2500, weight: 2, depts: ['workplace'] },
  { merchant: 'Zoom', cat: 'software', min: 15, max: 900, weight: 2, depts: ['workplace'] },
  { merchant: 'Atlassian', cat: 'software', min: 100, max: 3000, weight: 2, depts: ['platform'] },
  { merchant: 'GitHub', cat: 'software', min: 40, max: 2000, weight: 2, depts: ['platform'] },
  { merchant: 'Figma', cat: 'software', min: 15, max: 1200, weight: 1.5, depts: ['design'] },
  { merchant: 'Notion', cat: 'software', min: 10, max: 800, weight: 1.5, depts: ['pm'] },
  { merchant: 'Zendesk', cat: 'software', min: 50, max: 2500, weight: 1.5, depts: ['support'] },
  { merchant: 'HubSpot', cat: 'marketing_software', min: 200, max: 5000, weight: 2, depts: ['demand_gen'] },
  { merchant: 'Salesforce', cat: 'marketing_software', min: 150, max: 4000, weight: 1, depts: ['sales_east', 'sales_west'] },
  { merchant: 'Google Ads', cat: 'advertising', min: 100, max: 9000, weight: 4, depts: ['demand_gen'] },
  { merchant: 'LinkedIn Ads', cat: 'advertising', min: 100, max: 6000, weight: 2.5, depts: ['demand_gen', 'brand'] },
  { merchant: 'Meta Ads', cat: 'advertising', min: 50, max: 4000, weight: 1.5, depts: ['brand'] },
  { merchant: 'Delta Air Lines', cat: 'travel', min: 150, max: 1800, weight: 3, depts: ['sales_east', 'sales_west', 'cs_ops'] },
  { merchant: 'United Airlines', cat: 'travel', min: 150, max: 1600, weight: 2.5, depts: ['sales_west', 'sales_east'] },
  { merchant: 'Marriott', cat: 'travel', min: 120, max: 1500, weight: 2, depts: ['sales_east', 'cs_ops'] },
  { merchant: 'Hilton', cat: 'travel', min: 120, max: 1400, weight: 1.5, depts: ['sales_west'] },
  { merchant: 'Uber', cat: 'travel', min: 8, max: 120, weight: 6 },
  { merchant: 'Lyft', cat: 'travel', min: 8, max: 90, weight: 3 },
  { merchant: 'Airbnb', cat: 'travel', min: 150, max: 2500, weight: 1 },
  { merchant: 'DoorDash', cat: 'meals', min: 15, max: 250, weight: 4 },
  { merchant: 'Sweetgreen', cat: 'meals', min: 12, max: 180, weight: 3 },
  { merchant: 'Blue Bottle Coffee', cat: 'meals', min: 5, max: 60, weight: 3 },
  { merchant: 'Starbucks', cat: 'meals', min: 4, max: 45, weight: 3 },
  { merchant: 'Chipotle', cat: 'meals', min: 10, max: 150, weight: 2 },
  { merchant: 'Staples', cat: 'office_supplies', min: 15, max: 600, weight: 2, depts: ['workplace'] },
  { merchant: 'Amazon', cat: 'office_supplies', min: 10, max: 900, weight: 3, depts: ['workplace'] },
  { merchant: 'AMZN Mktp US', cat: 'office_supplies', min: 10, max: 400, weight: 1.5, depts: ['workplace'], desc: 'AMZN Mktp US*{ref}' },
  { merchant: 'Apple', cat: 'computer_equipment', min: 1100, max: 3500, weight: 0.6, depts: ['platform', 'design'] },
  { merchant: 'Dell', cat: 'computer_equipment', min: 800, max: 2800, weight: 0.4, depts: ['data_science'] },
  { merchant: 'Herman Miller', cat: 'furniture', min: 600, max: 4000, weight: 0.2, depts: ['workplace'] },
  { merchant: 'Eventbrite', cat: 'events', min: 50, max: 3000, weight: 1, depts: ['brand'] },
  { merchant: 'SaaStr', cat: 'events', min: 500, max: 6000, weight: 0.4, depts: ['demand_gen'] },
  { merchant: 'Greenhouse', cat: 'software', min: 300, max: 3000, weight: 0.8, depts: ['recruiting'] },
];

/**
 * Merchant names a spreadsheet would read as formulas. They must be stored and served exactly as
 * recorded; the add-in writes them as text. Each appears at least once in every company's feed.
 */
export const FORMULA_LIKE: PoolEntry[] = [
  { merchant: '=HYPERLINK("http://x")', cat: 'meals', min: 5, max: 50, weight: 0.05, desc: '=1+1' },
  { merchant: '+1 Coffee', cat: 'meals', min: 4, max: 30, weight: 0.1 },
  { merchant: '-Minus Labs', cat: 'software', min: 20, max: 400, weight: 0.1 },
  { merchant: '@home Services', cat: 'office_supplies', min: 30, max: 300, weight: 0.1 },
];

export const CARD_REFUNDS: PoolEntry[] = [
  { merchant: 'Delta Air Lines', cat: 'travel', min: 100, max: 900, weight: 3, desc: 'Refund - ticket cancelled' },
  { merchant: 'United Airlines', cat: 'travel', min: 100, max: 800, weight: 2, desc: 'Refund' },
  { merchant: 'Amazon', cat: 'office_supplies', min: 10, max: 300, weight: 3, desc: 'Return credit' },
  { merchant: 'Marriott', cat: 'travel', min: 80, max: 500, weight: 1, desc: 'Reservation credit' },
];

export const BANK_EXPENSES: PoolEntry[] = [
  { merchant: 'Cooley LLP', cat: 'professional_fees', min: 1500, max: 30000, weight: 2, depts: ['accounting'], desc: 'ACH DEBIT COOLEY LLP INV {ref}' },
  { merchant: 'Deloitte', cat: 'professional_fees', min: 3000, max: 25000, weight: 0.8, depts: ['accounting'], desc: 'WIRE OUT DELOITTE' },
  { merchant: 'Upwork', cat: 'contractors', min: 200, max: 8000, weight: 3, depts: ['platform', 'design', 'brand'] },
  { merchant: 'Toptal', cat: 'contractors', min: 2000, max: 15000, weight: 1.5, depts: ['platform'] },
  { merchant: 'Deel', cat: 'contractors', min: 1000, max: 12000, weight: 2, depts: ['platform', 'data_science'] },
  { merchant: 'The Hartford', cat: 'insurance', min: 300, max: 3000, weight: 1, depts: ['fin_ops'] },
  { merchant: 'Chase', cat: 'bank_fees', min: 15, max: 250, weight: 2, depts: ['accounting'], desc: 'WIRE FEE' },
  { merchant: 'Comcast Business', cat: 'office_supplies', min: 100, max: 600, weight: 1, depts: ['workplace'] },
  { merchant: 'PG&E', cat: 'rent', min: 200, max: 2000, weight: 1, depts: ['workplace'], desc: 'PGANDE WEB ONLINE' },
  { merchant: 'Guideline', cat: 'benefits', min: 500, max: 5000, weight: 1 },
  { merchant: 'Vanta', cat: 'software', min: 500, max: 3000, weight: 0.5, depts: ['infrastructure'] },
];

export const CUSTOMERS = [
  'Acme Corp',
  'Globex Corporation',
  'Initech',
  'Umbrella Health',
  'Stark Industries',
  'Wayne Enterprises',
  'Hooli',
  'Soylent Foods',
  'Cyberdyne Systems',
  'Vandelay Industries',
  'Massive Dynamic',
  'Tyrell Corporation',
];

export const REIMBURSEMENTS: PoolEntry[] = [
  { merchant: 'Uber', cat: 'travel', min: 10, max: 80, weight: 3 },
  { merchant: 'Shell', cat: 'travel', min: 30, max: 90, weight: 2 },
  { merchant: 'Chevron', cat: 'travel', min: 30, max: 90, weight: 1.5 },
  { merchant: 'Office Depot', cat: 'office_supplies', min: 10, max: 200, weight: 2, depts: ['workplace'] },
  { merchant: 'Comcast', cat: 'software', min: 60, max: 120, weight: 1.5, desc: 'Home internet stipend' },
  { merchant: 'Whole Foods', cat: 'meals', min: 15, max: 200, weight: 2 },
];

export const INTERCOMPANY: PoolEntry[] = [
  { merchant: 'Northwind Analytics Ltd', cat: 'contractors', min: 3000, max: 20000, weight: 2, depts: ['platform', 'data_science'], desc: 'UK engineering recharge' },
  { merchant: 'Northwind Analytics Ltd', cat: 'rent', min: 1500, max: 5000, weight: 1, depts: ['workplace'], desc: 'UK office recharge' },
];

export interface SplitTemplate {
  merchant: string;
  parts: string[];
  min: number;
  max: number;
  depts?: string[];
}

export const SPLITS: SplitTemplate[] = [
  { merchant: 'Costco', parts: ['office_supplies', 'meals'], min: 100, max: 1500, depts: ['workplace'] },
  { merchant: 'Amazon Business', parts: ['office_supplies', 'computer_equipment', 'software'], min: 200, max: 4000, depts: ['workplace', 'platform'] },
  { merchant: 'Target', parts: ['office_supplies', 'meals'], min: 50, max: 800, depts: ['workplace'] },
  { merchant: 'Hyatt Regency', parts: ['travel', 'meals', 'events'], min: 1500, max: 12000, depts: ['sales_east', 'sales_west', 'brand'] },
];
