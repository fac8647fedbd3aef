import { css, useTheme } from '@emotion/react';
import type { RichTextBlock } from '../../generated/content-types.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { eyebrowStyle, isDarkTone, Section, sectionHeadingStyle } from '../../ui/Section.tsx';

export default function RichText(props: RichTextBlock) {
  return props.image ? <TextWithImage {...props} image={props.image} /> : <TextOnly {...props} />;
}

/** A reading column under the section heading. */
function TextOnly({ id, eyebrow, heading, intro, tone, body }: RichTextBlock) {
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone} narrow>
      <Markdown parentLevel={heading ? 2 : 1} onDark={isDarkTone(tone)}>
        {body}
      </Markdown>
    </Section>
  );
}

/** Text and picture side by side on wide screens (picture first when `imagePosition` is "left"); stacked on phones. */
function TextWithImage({
  id,
  eyebrow,
  heading,
  intro,
  tone = 'plain',
  body,
  image,
  imagePosition = 'right',
}: RichTextBlock & { image: NonNullable<RichTextBlock['image']> }) {
  const theme = useTheme();
  const dark = isDarkTone(tone);
  // The heading sits in the text column, beside the picture, so the block draws its own header inside the Section shell.
  return (
    <Section id={id} tone={tone}>
      <div
        css={css({
          display: 'grid',
          gap: theme.space[7],
          alignItems: 'center',
          [theme.mq.lg]: { gridTemplateColumns: imagePosition === 'left' ? '5fr 6fr' : '6fr 5fr', gap: theme.space[8] },
        })}
      >
        <div css={css({ [theme.mq.lg]: { order: imagePosition === 'left' ? 2 : 1 } })}>
          {heading ? (
            <header css={css({ marginBottom: theme.space[5] })}>
              {eyebrow ? <p css={eyebrowStyle(theme, dark)}>{eyebrow}</p> : null}
              <h2 css={sectionHeadingStyle(theme, dark)}>{heading}</h2>
              {intro ? (
                <p
                  css={css({
                    margin: `${theme.space[4]} 0 0`,
                    fontSize: theme.fontSize.lg,
                    lineHeight: 1.6,
                    color: dark ? theme.colors.onDark : theme.colors.muted,
                  })}
                >
                  {intro}
                </p>
              ) : null}
            </header>
          ) : null}
          <Markdown parentLevel={heading ? 2 : 1} onDark={dark}>
            {body}
          </Markdown>
        </div>
        <figure css={css({ margin: 0, [theme.mq.lg]: { order: imagePosition === 'left' ? 1 : 2 } })}>
          <img
            src={image.src}
            alt={image.alt}
            width={image.width}
            height={image.height}
            loading="lazy"
            decoding="async"
            css={css({
              display: 'block',
              width: '100%',
              height: 'auto',
              borderRadius: theme.radius.lg,
              boxShadow: theme.shadow.raised,
              background: theme.colors.surface,
            })}
          />
        </figure>
      </div>
    </Section>
  );
}
