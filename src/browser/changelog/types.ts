/** The widget API's answers as the widget reads them (src/changelog/widget/dto/widget.dto.ts). */

export interface WidgetLabel {
  slug: string;
  name: string;
  colour: string;
}

export interface WidgetEntry {
  id: string;
  title: string;
  /** Rendered and sanitised by the service; rebuilt node by node before it is shown (entry-body.ts). */
  body_html: string;
  version: string | null;
  category: string;
  published_at: string;
  public_url: string | null;
  pinned: boolean;
  labels: WidgetLabel[];
  cover_image_url: string | null;
  cta: { label: string; url: string } | null;
  reactions: Record<string, number>;
  my_reaction: string | null;
  /** Whether this verified user was shown it before; null without a user id. */
  seen: boolean | null;
}

export interface WidgetAnnouncement {
  entry: WidgetEntry;
  /** `modal`, `banner` or `toast`. */
  style: string;
  until: string | null;
  once_key: string;
}

export interface WidgetProject {
  name: string;
  show_badge: boolean;
  hosted_url: string;
  subscribe: { enabled: boolean; url: string };
}

export interface WidgetPage {
  entries: WidgetEntry[];
  pinned: WidgetEntry[];
  unseen_count: number | null;
  announcement: WidgetAnnouncement | null;
  reactions: string[];
  project: WidgetProject;
}

export interface WidgetReactions {
  reactions: Record<string, number>;
  my_reaction: string | null;
}
