import { ApiProperty } from '@nestjs/swagger';

/** The signing secret, in the one answer that shows it (spec: Signing secret answer). */
export class SigningSecretDto {
  @ApiProperty({
    description: 'svc_ntf_ and 40 letters and digits. Shown once: store it on your server, never in a browser.',
    example: 'svc_ntf_4fQ9xK2mZp7LrT1vB8nC3dW6yH0jS5gA2eU9iO4k',
  })
  signing_secret: string;

  @ApiProperty({ description: 'When this secret was made.', example: '2026-11-03T10:00:00.000Z', format: 'date-time' })
  created_at: string;

  @ApiProperty({ enum: [true], description: 'Always true: the service never shows this secret again.' })
  shown_once: true;
}

/** A rotation's answer: the new secret, and until when the one it replaced still verifies. */
export class RotatedSigningSecretDto extends SigningSecretDto {
  @ApiProperty({
    description: 'Until this time (24 hours after the rotation) hashes made with the previous secret still verify.',
    example: '2026-11-04T10:00:00.000Z',
    format: 'date-time',
  })
  previous_valid_until: string;
}
