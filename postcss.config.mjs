// @ts-check
export default { plugins: { "@tailwindcss/postcss": {} } };
