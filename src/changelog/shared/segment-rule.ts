/** The segment rule object of a `segment` audience (spec: Segment rule). */
export interface SegmentRule {
  match: 'all' | 'any';
  rules: SegmentCondition[];
}

export type SegmentCondition =
  | { type: 'detail'; key: string; op: 'eq' | 'neq'; value: string }
  | { type: 'detail'; key: string; op: 'in'; value: string[] }
  | { type: 'detail'; key: string; op: 'exists' }
  | { type: 'consent'; purpose: string; status: 'granted' | 'withdrawn' };

export const MAX_SEGMENT_RULES = 10;
