// Mantine's PostCSS preset (light-dark(), rem(), breakpoint mixins) and its breakpoint variables.
export default {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '48em',
        'mantine-breakpoint-md': '62em',
        'mantine-breakpoint-lg': '75em',
        'mantine-breakpoint-xl': '88em',
        // The wide layout starts above 1150 px (spec §9).
        'mantine-breakpoint-wide': '71.9375em',
      },
    },
  },
};
