import { ApiProperty } from '@nestjs/swagger';

export class BrowserScriptIntegrityDto {
  @ApiProperty({
    example: 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
    description:
      'Subresource Integrity of the content-hashed notifications.js: its script tag\'s `integrity`, with `crossorigin="anonymous"`.',
  })
  notifications: string;

  @ApiProperty({
    example: 'sha384-1p6z5ZlfWzwUJpXjbA0KcL7Wl0xXyVwF8yq1P0Y4bW1cQJ1u7hW9nJx5v2m3s4t5',
    description: 'Subresource Integrity of the content-hashed changelog.js.',
  })
  changelog: string;
}

/** The current browser scripts at their content-hashed, immutable addresses on `{cdn_url}`. */
export class BrowserScriptsDto {
  @ApiProperty({
    example: '5d41402abc4b2a76',
    description: 'Changes whenever either script changes (a new release, or another PUBLIC_BASE_URL written into them).',
  })
  version: string;

  @ApiProperty({
    format: 'uri',
    example: 'https://cdn.example.com/v1/notifications.0a1b2c3d4e5f6789.js',
    description: 'The notification bell at `{cdn_url}/v1/notifications.<hash>.js`: cached for a year, never changes.',
  })
  notifications: string;

  @ApiProperty({
    format: 'uri',
    example: 'https://cdn.example.com/v1/changelog.9f8e7d6c5b4a3210.js',
    description: 'The changelog widget at `{cdn_url}/v1/changelog.<hash>.js`: cached for a year, never changes.',
  })
  changelog: string;

  @ApiProperty({ type: BrowserScriptIntegrityDto, description: 'The `integrity` attribute for each content-hashed script tag.' })
  integrity: BrowserScriptIntegrityDto;
}
